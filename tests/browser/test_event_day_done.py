"""Issue 39's "Done when": a 16-player event run from the pages. Every result is entered and
confirmed by the players on their own pages (4 rounds), one dispute is settled by the
organiser in one tap, one player checks in late, one gets a penalty, a round is undone once;
the standings, the slips and sheets and the statistics page show the right figures. On SQLite,
and on PostgreSQL when TEST_DATABASE_URL answers (skipped, saying why, when it does not)."""

from __future__ import annotations

import io
import json
import os
import urllib.request
from collections import Counter

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.conftest import DESKTOP, PHONE, served
from tests.browser.event_day_pages import enter, make_event
from tests.browser.test_rounds import ARMY, post
from tests.conftest import private_postgres_database

pytestmark = pytest.mark.browser

SPORES = {**ARMY, "book": "gf-spore-choir", "name": "Brood", "units": [{"key": "s", "unit": "sc-seed-swarm"}]}
BOOKS = {"gf-cinder-covenant": "Cinder Covenant", "gf-spore-choir": "Verdant Spore Choir"}  # as the sheets name them


def read(base, path, token=None, raw=False):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=60) as response:
        data = response.read()
    return data if raw else json.loads(data)


def postgres_silent(url):
    """Why the PostgreSQL server at *url* does not answer (None: it does)."""
    from sqlalchemy import create_engine, text

    from listbuilder.store.database import normalise_url

    engine = create_engine(normalise_url(url), connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as error:  # noqa: BLE001 - any failure to connect is the reason to skip
        return str(error).splitlines()[0]
    finally:
        engine.dispose()
    return None


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request, registry):
    """The app served on SQLite (the session's live server), or on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield request.getfixturevalue("live_server")
        return
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set: the done-when day on PostgreSQL is skipped")
    silent = postgres_silent(url)
    if silent:
        pytest.skip(f"TEST_DATABASE_URL does not answer ({silent}): the done-when day on PostgreSQL is skipped")
    with private_postgres_database() as database_url, served(registry, database_url) as base:
        yield base


def test_a_16_player_event_runs_from_everyones_pages(browser, server):
    made = make_event(server, books=tuple(BOOKS), name="Winter Cup")
    base = f"/api/v1/events/{made['id']}"
    names = [f"P{i:02d}" for i in range(1, 17)]
    tokens, book = {}, {}
    for i, name in enumerate(names):
        army = ARMY if i % 2 == 0 else SPORES
        tokens[name] = enter(server, made, name, army)
        book[name] = army["book"]
    for name in names[:-1]:  # P16 is late
        post(server, f"{base}/checkins", {"player": name}, tokens[name])

    contexts = []

    def page_of(token, size=PHONE):
        context = browser.new_context(viewport=size, is_mobile=size == PHONE, has_touch=size == PHONE)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20000)
        return page

    try:
        organiser = page_of(made["organiser_token"], DESKTOP)
        organiser.goto(f"{server}/events/{made['id']}/day#organiser={made['organiser_token']}")
        expect(organiser.locator("#checkin-summary")).to_have_text("15 of 16 players checked in.")
        organiser.get_by_role("button", name="Withdraw the 1 player not checked in…").click()
        organiser.locator("#day-confirm-yes").click()
        expect(organiser.locator("#round-summary")).to_have_text("15 players still in.")

        def start(number, players, byes):
            organiser.get_by_role("button", name="Start the next round").click()
            expect(organiser.locator("#day-confirm-text")).to_have_text(
                f"Start round {number}: {players} players, {players // 2} tables, {byes} bye{'s' if byes != 1 else ''}?"
            )
            organiser.locator("#day-confirm-yes").click()
            expect(organiser.locator("#round-title")).to_have_text(f"Round {number}")

        start(1, 15, 1)
        organiser.locator("#undo-round").click()  # undone once: nothing entered yet
        organiser.locator("#day-confirm-yes").click()
        expect(organiser.locator("#round-title")).to_have_text("No round yet")
        start(1, 15, 1)

        pages = {name: page_of(tokens[name]) for name in names}

        def my_day(name):
            """The player's own page, fresh (the first time from their link; then reloaded)."""
            page = pages[name]
            if page.url.startswith(server):
                page.reload()
            else:
                page.goto(f"{server}/events/{made['id']}/me#player={tokens[name]}")
            return page

        late = my_day("P16")
        late.get_by_role("button", name="Check in").click()  # late: back from round 2
        expect(late.locator("#me-checked")).to_have_text("Checked in.")

        score = Counter()
        tally = {b: Counter() for b in BOOKS}
        for number in range(1, 5):
            if number > 1:
                start(number, 16, 0)
            pairings = read(server, f"{base}/rounds/{number}")["pairings"]
            for t in pairings:
                a, b = t["players"]
                if b is None:
                    score[a] += 3
                    continue
                winner, loser = sorted((a, b))
                score[winner] += 3
                tally[book[winner]]["win"] += 1
                tally[book[loser]]["loss"] += 1
                mine = my_day(winner)
                expect(mine.locator("#me-table")).to_contain_text(f"Round {number}, table {t['table']}")
                mine.get_by_label("I won").check()
                mine.get_by_label("My secondary score").fill("5")
                mine.get_by_label("’s secondary score").fill("1")
                mine.get_by_role("button", name="Send my result").click()
                expect(mine.locator("#me-table")).to_contain_text("Waiting for")
                theirs = my_day(loser)
                expect(theirs.locator("#me-table")).to_contain_text(f"{winner} entered: {winner} won")
                if number == 2 and t["table"] == 1:  # the dispute: the loser says they won
                    theirs.get_by_text("That is not what happened").click()
                    theirs.get_by_label("I won").check()
                    theirs.get_by_label("My secondary score").fill("4")
                    theirs.get_by_label("’s secondary score").fill("2")
                    theirs.get_by_role("button", name="Send my result").click()
                    expect(theirs.locator("#me-table .badge")).to_have_text("disputed")
                    organiser.reload()
                    card = organiser.locator("#day-tables .table-card").first
                    expect(card.locator(".badge")).to_have_text("disputed")
                    card.get_by_role("button", name=f"Count {winner}’s").click()
                    expect(card.locator(".badge")).to_have_text("decided")
                else:
                    theirs.get_by_role("button", name="Confirm", exact=True).click()
                    expect(theirs.locator("#me-table")).to_contain_text(f"Agreed: {winner} won")
            organiser.reload()
            expect(organiser.locator("#round-summary")).to_contain_text(
                f"{len(pairings)} of {len(pairings)} tables have a result."
            )
            if number == 1:
                organiser.select_option("#adjust-player", "P03")
                organiser.fill("#adjust-points", "-1")
                organiser.fill("#adjust-reason", "late to the table")
                organiser.get_by_role("button", name="Record it").click()
                expect(organiser.locator("#adjustments")).to_contain_text("P03: -1 (late to the table; after round 1)")
                score["P03"] -= 1

        standings = {s["player"]: s for s in read(server, f"{base}/standings")["standings"]}
        assert {p: s["score"] for p, s in standings.items()} == {p: float(score[p]) for p in names}
        assert standings["P03"]["adjustment"] == -1 and standings["P16"]["played"] == 3
        organiser.goto(f"{server}/events/{made['id']}/standings")
        expect(organiser.locator("#standings-rows tr")).to_have_count(16)
        top = max(names, key=lambda p: (score[p], -standings[p]["rank"]))
        expect(organiser.locator("#standings-rows tr").first.locator(".player")).to_have_text(standings[top]["player"])

        entries = {e["player"]: e for e in read(server, f"{base}/report", made["organiser_token"])["entries"]}
        slips = "".join(
            p.extract_text() for p in PdfReader(io.BytesIO(read(server, f"{base}/rounds/4/slips.pdf", raw=True))).pages
        )
        for t in read(server, f"{base}/rounds/4")["pairings"]:
            for p in t["players"]:
                assert p in slips and entries[p]["verification_code"] in slips
        sheet = PdfReader(io.BytesIO(read(server, f"{base}/rounds/4/pairings.pdf", raw=True))).pages[0].extract_text()
        first = read(server, f"{base}/rounds/4")["pairings"][0]["players"][0]
        assert f"{first} ({standings[first]['score']:g} · {BOOKS[book[first]]})" in sheet

        organiser.goto(f"{server}/events/{made['id']}/day")
        organiser.get_by_role("button", name="Open the statistics to everyone").click()
        expect(organiser.locator("#statistics-state")).to_have_text("Everyone can read the statistics page.")
        figures = read(server, f"{base}/statistics")
        for f in figures["factions"]:
            wins, losses = tally[f["book"]]["win"], tally[f["book"]]["loss"]
            assert (f["wins"], f["draws"], f["losses"], f["players"]) == (wins, 0, losses, 8)
            assert f["win_rate"] == round(wins / (wins + losses), 3)
        public = pages["P01"]
        public.goto(f"{server}/events/{made['id']}/statistics")
        for f in figures["factions"]:
            row = public.locator("tr", has_text=BOOKS[f["book"]]).first
            expect(row).to_contain_text(f"{100 * f['win_rate']:.0f}%")
    finally:
        for context in contexts:
            context.close()
