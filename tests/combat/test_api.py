"""POST /api/v1/previews and `listbuilder preview` on the real army books."""

from __future__ import annotations

import json
import math

from listbuilder.cli import main

SWORDS = {"book": "aof-ember-marches", "unit": "march-swordsmen"}
XBOWS = {"book": "aof-ember-marches", "unit": "crossbowmen"}
TROLLS = {
    "profile": {
        "name": "Trolls",
        "size": 3,
        "quality": 4,
        "defense": 4,
        "rules": ["Tough(3)", "Regeneration"],
        "weapons": [{"name": "Claws", "attacks": 3, "rules": ["AP(1)"]}],
    }
}

GF_LIST = {
    "system": "grimdark-future",
    "book": "gf-cinder-covenant",
    "points_limit": 1000,
    "units": [
        {"key": "wardens", "unit": "cc-ash-wardens"},
        {
            "key": "cantor",
            "unit": "cc-high-cantor",
            "joined_to": "wardens",
            "upgrades": [{"section": "cc-cantor-liturgy", "option": "liturgy-of-ash"}],
        },
    ],
}


def post(client, body):
    return client.post("/api/v1/previews", json=body)


def test_preview_shooting_shape(client):
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": XBOWS,
            "defender": TROLLS,
            "situation": {"attack": "shooting", "range": 18},
        },
    )
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    assert set(body) >= {
        "system",
        "attacker",
        "defender",
        "situation",
        "expected",
        "distributions",
        "p_destroyed",
        "consequences",
    }
    assert set(body["distributions"]) == {"hits", "wounds", "models_killed"}
    hits = body["distributions"]["hits"]
    assert abs(sum(hits["pmf"].values()) - 1) < 1e-9 and abs(hits["at_least"]["0"] - 1.0) < 1e-9
    # 10 crossbows Q5+ AP(1) vs D4+: 10 x 1/3 hits, each wounds 2/3, Regeneration keeps 2/3
    # (the trolls' 9 wounds cap it, but 10 wounding hits out of 10 is a 1-in-10^8 event)
    assert abs(body["expected"]["hits"] - 10 / 3) < 1e-9
    assert abs(body["expected"]["wounds"] - 10 / 3 * 2 / 3 * 2 / 3) < 1e-7
    assert "p_wavering" in body["consequences"]["morale"]


def test_preview_melee_with_strike_back(client):
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": SWORDS,
            "defender": TROLLS,
            "situation": {"attack": "melee", "charging": True},
        },
    )
    assert res.status_code == 200, res.get_json()
    cons = res.get_json()["consequences"]
    assert set(cons["melee"]) == {"p_attacker_wins", "p_defender_wins", "p_tie"}
    assert cons["strike_back"]["expected"]["hits"] > 0


def test_preview_list_unit_with_joined_hero(client):
    body = {
        "system": "grimdark-future",
        "attacker": {"list": GF_LIST, "key": "cantor"},
        "defender": {"list": GF_LIST, "key": "wardens"},
        "situation": {"attack": "shooting", "range": 12},
    }
    res = post(client, body)
    assert res.status_code == 200, res.get_json()
    out = res.get_json()
    assert out["attacker"]["name"] == out["defender"]["name"]  # the hero fights with the unit it joined
    assert [h["unit"] for h in out["defender"]["heroes"]] == ["cc-high-cantor"]


def test_melee_without_melee_weapon_is_422(client):
    shooter = {
        "profile": {
            "name": "Gunners",
            "size": 5,
            "quality": 4,
            "defense": 5,
            "weapons": [{"name": "Gun", "attacks": 1, "range": 24}],
        }
    }
    res = post(
        client, {"system": "grimdark-future", "attacker": shooter, "defender": TROLLS, "situation": {"attack": "melee"}}
    )
    assert res.status_code == 422
    body = res.get_json()
    assert body["code"] == 422 and "attacker" in body["errors"] and "melee" in body["message"]


def test_range_beyond_weapon_is_422(client):
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": XBOWS,
            "defender": TROLLS,
            "situation": {"attack": "shooting", "range": 30},
        },
    )
    assert res.status_code == 422
    assert "situation.range" in res.get_json()["errors"]


def test_bad_fields_are_422_with_paths(client):
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": {"book": "aof-ember-marches"},
            "defender": {"profile": {"name": "X", "quality": 9}},
            "situation": {"attack": "throwing"},
        },
    )
    assert res.status_code == 422
    errors = res.get_json()["errors"]
    assert "attacker.unit" in errors


def test_profile_and_situation_errors_name_their_fields(client):
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": SWORDS,
            "defender": {"profile": {"name": "X", "quality": 9}},
            "situation": {"attack": "throwing"},
        },
    )
    assert res.status_code == 422
    errors = res.get_json()["errors"]
    assert "defender.profile.quality" in errors and "situation.attack" in errors


def test_unknown_system_and_unit_are_404(client):
    assert post(client, {"system": "chess", "attacker": SWORDS, "defender": TROLLS, "situation": {}}).status_code == 404
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": {"book": "aof-ember-marches", "unit": "dragon"},
            "defender": TROLLS,
            "situation": {"attack": "melee"},
        },
    )
    assert res.status_code == 404 and "attacker.unit" in res.get_json()["errors"]


def test_shaken_attacker_is_422(client):
    res = post(
        client,
        {
            "system": "age-of-fantasy",
            "attacker": SWORDS,
            "defender": TROLLS,
            "situation": {"attack": "melee", "attacker": {"shaken": True}},
        },
    )
    assert res.status_code == 422 and "situation.attacker.shaken" in res.get_json()["errors"]


def test_cli_preview(tmp_path, capsys):
    path = tmp_path / "req.json"
    path.write_text(
        json.dumps(
            {"system": "age-of-fantasy", "attacker": XBOWS, "defender": TROLLS, "situation": {"attack": "shooting"}}
        )
    )
    assert main(["preview", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert abs(out["expected"]["hits"] - 10 / 3) < 1e-9
    path.write_text(
        json.dumps(
            {
                "system": "age-of-fantasy",
                "attacker": XBOWS,
                "defender": TROLLS,
                "situation": {"attack": "shooting", "range": 99},
            }
        )
    )
    assert main(["preview", str(path)]) == 2


def test_preview_list_combined_pair_fights_as_one(client):
    army = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "points_limit": 2000,
        "units": [{"key": "a", "unit": "cc-ash-wardens", "combined_with": "b"}, {"key": "b", "unit": "cc-ash-wardens"}],
    }
    res = post(
        client,
        {
            "system": "grimdark-future",
            "attacker": {"list": army, "key": "b"},
            "defender": TROLLS,
            "situation": {"attack": "shooting", "range": 12},
        },
    )
    assert res.status_code == 200, res.get_json()
    out = res.get_json()
    assert out["attacker"]["models"] == 20
    assert abs(out["expected"]["hits"] - 20 * 0.5) < 1e-9  # 20 Ash Rifles at Quality 4+


PATHFINDERS = {"book": "gf-cinder-covenant", "unit": "cc-pathfinders"}  # 5 Long Rifles with Sniper


def test_001_sniper_picks_the_joined_hero_through_the_api(client):
    body = {
        "system": "grimdark-future",
        "attacker": PATHFINDERS,
        "defender": {"list": GF_LIST, "key": "wardens"},
        "situation": {"attack": "shooting", "range": 24, "pick": "hero"},
    }
    res = post(client, body)
    assert res.status_code == 200, res.get_json()
    out = res.get_json()
    # 001 Sniper: 5 shots at Q2+ on the High Cantor alone, who blocks with its own 4+ and dies to 3 wounds
    a = 5 / 6 * 1 / 2
    dead = sum(math.comb(5, k) * a**k * (1 - a) ** (5 - k) for k in range(3, 6))
    assert out["situation"]["pick"] == "hero"
    assert out["consequences"]["pick"]["name"] == "High Cantor"
    assert abs(out["consequences"]["pick"]["p_killed"] - dead) < 1e-9
    assert abs(out["expected"]["models_killed"] - dead) < 1e-9 and out["p_destroyed"] == 0
    by_name = post(client, {**body, "situation": {**body["situation"], "pick": {"hero": "high cantor"}}}).get_json()
    assert by_name["consequences"]["pick"] == out["consequences"]["pick"]


def test_bad_picks_are_422_naming_the_field(client):
    shoot = {"attack": "shooting", "range": 24}
    res = post(
        client,
        {
            "system": "grimdark-future",
            "attacker": PATHFINDERS,
            "defender": TROLLS,
            "situation": {**shoot, "pick": "hero"},
        },
    )
    assert res.status_code == 422 and "situation.pick" in res.get_json()["errors"]
    assert "no joined hero" in res.get_json()["errors"]["situation.pick"][0]
    res = post(
        client,
        {
            "system": "grimdark-future",
            "attacker": PATHFINDERS,
            "defender": TROLLS,
            "situation": {**shoot, "pick": {"model": 3}},
        },
    )
    assert res.status_code == 422 and "situation.pick.model" in res.get_json()["errors"]
    res = post(
        client,
        {
            "system": "grimdark-future",
            "attacker": PATHFINDERS,
            "defender": TROLLS,
            "situation": {**shoot, "pick": {"model": -1}},
        },
    )
    assert res.status_code == 422 and "situation.pick.model" in res.get_json()["errors"]
    res = post(
        client,
        {
            "system": "grimdark-future",
            "attacker": PATHFINDERS,
            "defender": TROLLS,
            "situation": {**shoot, "pick": "captain"},
        },
    )
    assert res.status_code == 422 and "situation.pick" in res.get_json()["errors"]


def test_preview_requests_build_no_schemas_after_the_first(client, monkeypatch):
    """Issue 15: marshmallow schemas are built once per process, not per request."""
    import marshmallow

    body = {
        "system": "age-of-fantasy",
        "attacker": XBOWS,
        "defender": TROLLS,
        "situation": {"attack": "shooting", "range": 18},
    }
    assert post(client, body).status_code == 200
    built: list[str] = []
    original = marshmallow.Schema.__init__

    def counting(self, *args, **kwargs):
        built.append(type(self).__name__)
        original(self, *args, **kwargs)

    monkeypatch.setattr(marshmallow.Schema, "__init__", counting)
    assert post(client, body).status_code == 200
    assert built == []
