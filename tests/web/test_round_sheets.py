"""The round's printed sheets (issue 39): the pairings with each player's score and army book,
an alphabetical "find your table" sheet, and a result slip per table with both lists'
verification codes. Read back from the PDFs. On SQLite and PostgreSQL."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.web.test_events_api import make_event
from tests.web.test_rounds_api import confirm, register, result, start, url, win


def text_of(response):
    assert response.status_code == 200 and response.mimetype == "application/pdf", response.data[:200]
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages]


def test_pairings_find_your_table_and_slips_carry_scores_factions_and_codes(saved_client):
    event = make_event(saved_client, name="Autumn Open")
    names = ["Zoe", "ann", "Mia", "Bob", "Kim"]
    tokens = register(saved_client, event, 5, names=names)
    first = start(saved_client, event, seed=3)
    for t in first["pairings"]:
        a, b = t["players"]
        if b is not None:
            result(saved_client, event, 1, tokens[a], table=t["table"], **win(a, b))
            confirm(saved_client, event, 1, tokens[b], t["table"])
    second = start(saved_client, event)
    standings = {s["player"]: s for s in saved_client.get(url(event, "/standings")).json["standings"]}
    (pairings,) = text_of(saved_client.get(url(event, "/rounds/2/pairings.pdf")))
    a, b = second["pairings"][0]["players"]
    assert f"{a} ({standings[a]['score']:g} · Cinder Covenant)" in pairings
    assert f"{b} ({standings[b]['score']:g} · Cinder Covenant)" in pairings
    (find,) = text_of(saved_client.get(url(event, "/rounds/2/find-your-table.pdf?paper=letter")))
    assert "find your table" in find
    lines = find.split("Player Table Opponent\n", 1)[1].splitlines()
    assert [line.split(" ")[0] for line in lines if line.split(" ")[0] in names] == sorted(names, key=str.casefold)
    slips = text_of(saved_client.get(url(event, "/rounds/2/slips.pdf")))
    assert len(slips) == 1  # two games (a bye has no slip), four slips to a page
    codes = {
        s["player"]: s
        for s in saved_client.get(
            url(event, "/report"), headers={"Authorization": f"Bearer {event['organiser_token']}"}
        ).json["entries"]
    }
    for t in second["pairings"]:
        if t["players"][1] is not None:
            assert f"table {t['table']}" in slips[0]
            for p in t["players"]:
                assert p in slips[0] and codes[p]["verification_code"] in slips[0]
    assert saved_client.get(url(event, "/rounds/3/slips.pdf")).status_code == 404
    assert saved_client.get(url(event, "/rounds/2/slips.pdf?paper=a3")).status_code == 422
