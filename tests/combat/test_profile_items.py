"""Inline ``profile`` preview sides fight with the weapons inside their items too (a mount's
hooves), as book and list units do."""

from __future__ import annotations

RIDER = {
    "profile": {
        "name": "Rider",
        "size": 1,
        "quality": 3,
        "defense": 4,
        "items": [
            {"name": "Steed", "rules": ["Fast"], "weapons": [{"name": "Hooves", "attacks": 2, "rules": ["AP(1)"]}]}
        ],
    }
}
TARGET = {
    "profile": {"name": "Target", "size": 5, "quality": 5, "defense": 5, "weapons": [{"name": "Club", "attacks": 1}]}
}


def test_profile_item_weapons_fight(client):
    response = client.post(
        "/api/v1/previews",
        json={"system": "grimdark-future", "attacker": RIDER, "defender": TARGET, "situation": {"attack": "melee"}},
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [w["name"] for w in body["attacker"]["weapons"]] == ["Hooves"]
    assert body["expected"]["hits"] > 0
