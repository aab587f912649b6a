"""POST /api/v1/previews/compare (issue 15): loadouts of one unit against the same target."""

from __future__ import annotations

import pytest

SWORDS = {"book": "aof-ember-marches", "unit": "march-swordsmen"}
TARGET = {"book": "aof-sunken-hollows", "unit": "mire-warriors"}
GREAT = [{"section": "em-swords-replace", "option": "great-weapon", "count": 10}]
PAIRED = [{"section": "em-swords-replace", "option": "paired-blades", "count": 10}]
MELEE = {"attack": "melee", "charging": True}


def body(options, **change):
    return {
        "system": "age-of-fantasy",
        "attacker": SWORDS,
        "options": options,
        "defender": TARGET,
        "situation": MELEE,
        **change,
    }


def test_each_option_is_the_preview_of_that_loadout_per_100_points(client):
    res = client.post(
        "/api/v1/previews/compare",
        json=body([{"upgrades": []}, {"upgrades": GREAT}, {"label": "Paired", "upgrades": PAIRED}]),
    )
    assert res.status_code == 200, res.get_json()
    options = res.get_json()["options"]
    assert [o["label"] for o in options] == ["Base loadout", "10 x Great Weapon (A1, AP(2))", "Paired"]
    assert [o["points"] for o in options] == [70, 100, 90]  # 70 + 10 x 3, 70 + 10 x 2
    for option in options:
        single = client.post(
            "/api/v1/previews",
            json={
                "system": "age-of-fantasy",
                "attacker": {**SWORDS, "upgrades": option["upgrades"]},
                "defender": TARGET,
                "situation": MELEE,
            },
        ).get_json()
        assert option["expected_wounds"] == pytest.approx(single["expected"]["wounds"], abs=1e-12)
        assert option["p_destroyed"] == pytest.approx(single["p_destroyed"], abs=1e-12)
        assert option["wounds_per_100_points"] == pytest.approx(option["expected_wounds"] * 100 / option["points"])
    best = res.get_json()["best"]
    assert options[best]["wounds_per_100_points"] == max(o["wounds_per_100_points"] for o in options)
    assert best == 2  # paired blades: twice the attacks for 20 points


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        ({"options": [{"upgrades": []}]}, 422, "options"),
        ({"options": [{"upgrades": []}] * 9}, 422, "options"),
        (
            {"options": [{"upgrades": []}, {"upgrades": [{"section": "em-swords-replace", "option": "nope"}]}]},
            422,
            "options[1].upgrades[0].option",
        ),
        ({"attacker": {"book": "aof-ember-marches", "unit": "nobody"}}, 404, "attacker.unit"),
        ({"attacker": {"book": "no-book", "unit": "x"}}, 404, "attacker.book"),
        ({"attacker": {"profile": {"name": "x"}}}, 422, "attacker.profile"),
        ({"situation": {"attack": "shooting"}}, 422, "attacker"),
        (
            {
                "defender": {
                    "profile": {"name": "Wall", "size": 100, "quality": 4, "defense": 4, "rules": ["Tough(30)"]}
                }
            },
            413,
            "defender",
        ),
    ],
)
def test_compare_refuses_in_the_error_shape(client, change, status, field):
    res = client.post("/api/v1/previews/compare", json={**body([{"upgrades": []}, {"upgrades": GREAT}]), **change})
    assert res.status_code == status, res.get_json()
    assert field in res.get_json()["errors"], res.get_json()


def test_comparing_hex_loadouts_is_refused_not_a_500(client):
    """The hex engines count hit points and damage results, not wounds: a 422 naming the system,
    and the document offers comparisons for the OPR systems only."""
    jarl = {"book": "ahx-fjordhold", "unit": "jarl"}
    res = client.post(
        "/api/v1/previews/compare",
        json={
            "system": "ancients-hex",
            "attacker": jarl,
            "options": [{"upgrades": []}, {"upgrades": []}],
            "defender": jarl,
            "situation": {"attack": "melee"},
        },
    )
    assert res.status_code == 422 and "system" in res.get_json()["errors"]
    mapping = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["CompareRequest"]["discriminator"][
        "mapping"
    ]
    assert set(mapping) == {"age-of-fantasy", "age-of-fantasy-regiments", "grimdark-future"}
