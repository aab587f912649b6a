"""The read-only page of a saved list (/l/<id>) shows a unit on the table as one block, as the
builder does: a combined pair once, a joined hero inside its unit, models and cost summed."""

from __future__ import annotations

import re

ARMY = {
    "system": "grimdark-future",
    "book": "gf-cinder-covenant",
    "name": "Blocks",
    "points_limit": 1000,
    "units": [
        {"key": "a", "unit": "cc-ash-wardens", "combined_with": "b"},
        {"key": "b", "unit": "cc-ash-wardens", "combined_with": "a"},
        {"key": "p", "unit": "cc-ember-priest", "joined_to": "a"},
        {"key": "c", "unit": "cc-flame-sisters", "name": "Nuns"},
    ],
}


def _blocks(html: str) -> list[str]:
    rows = re.findall(r'<tr class="unit-block">(.*?)</tr>', html, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r)).strip() for r in rows]


def test_a_pair_and_its_joined_hero_are_one_block_with_summed_models_and_cost(saved_client):
    made = saved_client.post("/api/v1/lists", json=ARMY).get_json()
    page = saved_client.get(f"/l/{made['id']}")
    assert page.status_code == 200
    blocks = _blocks(page.get_data(as_text=True))
    assert len(blocks) == 2
    assert blocks[0].startswith("1 2× Ash Wardens with Ember Priest")
    assert "Ember Priest (hero), 1 model, 65 pts" in blocks[0]
    assert blocks[0].endswith("21 315 pts")  # 10 + 10 + 1 models; 125 + 125 + 65 pts
    assert "combined with" not in blocks[0] and "joined to" not in blocks[0]
    assert blocks[1] == "2 Nuns (Flame Sisters) 5 125 pts"
