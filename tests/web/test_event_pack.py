"""The roster pack of an event as a join of rosters rendered once (issue 25): at submission, or
a slice per request with the progress reported, on SQLite and on PostgreSQL when set."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from listbuilder.printing import packs as roster_pack
from listbuilder.store import rendered
from listbuilder.store.rendered import event_rosters
from tests.web.test_events_api import ILLEGAL, make_event, organiser, submit
from tests.web.test_saved_api import create


def pack(client, event, paper="a4"):
    return client.get(f"/api/v1/events/{event['id']}/roster-pack.pdf?paper={paper}", headers=organiser(event))


def kept(db, event, paper):
    with db.reading() as conn:
        return conn.scalar(
            select(func.count())
            .select_from(event_rosters)
            .where(event_rosters.c.event_id == event["id"], event_rosters.c.paper == paper)
        )


def refuse_to_render(monkeypatch):
    def no_render(*args, **kwargs):
        raise AssertionError("the pack rendered a roster that was kept at submission")

    monkeypatch.setattr(roster_pack, "roster_pdf", no_render)


def test_a_submission_keeps_its_roster_so_the_a4_pack_renders_nothing(saved_client, db, monkeypatch):
    event = make_event(saved_client, allow_illegal=True)
    submit(saved_client, event, create(saved_client), player="Ann Arbor")
    submit(saved_client, event, create(saved_client, ILLEGAL), player="Bo Brandt")
    assert kept(db, event, "a4") == 2
    refuse_to_render(monkeypatch)
    response = pack(saved_client, event)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.data))
    assert [item.title for item in pdf.outline] == ["Ann Arbor", "Bo Brandt"]
    assert "Ann Arbor" in pdf.pages[0].extract_text() and "NOT A LEGAL LIST" in pdf.pages[-1].extract_text()


def test_missing_rosters_are_rendered_a_slice_per_request_with_the_progress_in_a_202(saved_client, db, monkeypatch):
    monkeypatch.setitem(saved_client.application.config, "PACK_RENDER_SECONDS", 0)  # one roster per request
    event = make_event(saved_client)
    for player in ("Ann", "Bo", "Cy"):
        submit(saved_client, event, create(saved_client), player=player)
    progress_url = f"/api/v1/events/{event['id']}/roster-pack?paper=letter"
    before = saved_client.get(progress_url, headers=organiser(event))
    assert (
        before.status_code == 200
        and before.json["rendered"] == 0
        and before.json["players"] == 3
        and before.json["ready"] is False
    )
    seen = []
    for _ in range(3):
        answer = pack(saved_client, event, "letter")
        seen.append(answer.status_code)
        if answer.status_code == 202:
            assert answer.headers["Retry-After"] == "1" and answer.json["pdf_url"].endswith(
                f"/events/{event['id']}/roster-pack.pdf?paper=letter"
            )
            assert answer.json["rendered"] == len(seen) and answer.json["ready"] is False
    assert seen == [202, 202, 200]
    assert saved_client.get(progress_url, headers=organiser(event)).json == {
        **before.json,
        "rendered": 3,
        "ready": True,
    }
    assert (
        kept(db, event, "letter") == 3
        and round(float(PdfReader(io.BytesIO(answer.data)).pages[0].mediabox.width)) == 612
    )


def test_rosters_rendered_by_older_templates_are_rendered_again(saved_client, db, monkeypatch):
    event = make_event(saved_client)
    submit(saved_client, event, create(saved_client), player="Ann")
    monkeypatch.setattr(roster_pack, "renderer", lambda: "roster-pdf/next")  # the templates changed since
    progress = saved_client.get(f"/api/v1/events/{event['id']}/roster-pack", headers=organiser(event)).json
    assert (progress["rendered"], progress["players"]) == (0, 1)
    assert pack(saved_client, event).status_code == 200
    assert kept(db, event, "a4") == 1  # replaced, not kept beside the old one


def test_a_roster_too_large_to_render_at_submission_still_submits(saved_client, monkeypatch):
    from listbuilder.printing.budget import RosterTooLarge

    def too_large(*args, **kwargs):
        raise RosterTooLarge("units", "over the budget")

    monkeypatch.setattr(roster_pack, "roster_pdf", too_large)
    event = make_event(saved_client)
    assert submit(saved_client, event, create(saved_client), player="Ann").status_code == 201


@pytest.mark.parametrize("path", ["roster-pack", "roster-pack.pdf"])
def test_the_pack_and_its_progress_need_the_organiser_token(saved_client, path):
    event = make_event(saved_client)
    made = create(saved_client)
    submit(saved_client, event, made)
    assert saved_client.get(f"/api/v1/events/{event['id']}/{path}").status_code == 401
    assert (
        saved_client.get(
            f"/api/v1/events/{event['id']}/{path}", headers={"Authorization": f"Bearer {made['edit_token']}"}
        ).status_code
        == 403
    )


def test_the_report_reads_its_entries_lists_in_round_trips_that_do_not_grow_with_players(saved_client, saved_app):
    """Issue 25: one transaction per entry made a 500-player report take seconds."""
    from tests.conftest import round_trips

    counts = []
    for players in (2, 8):
        event = make_event(saved_client, allow_illegal=True)
        for n in range(players):
            submit(saved_client, event, create(saved_client), player=f"Player {n}")
        with round_trips(saved_app.extensions["listbuilder.database"]) as sent:
            assert (
                len(saved_client.get(f"/api/v1/events/{event['id']}/report", headers=organiser(event)).json["entries"])
                == players
            )
        counts.append(len(sent))
    assert counts[0] == counts[1], counts


def test_reading_versions_together_leaves_out_deleted_and_unknown_ones(db, registry):
    from listbuilder.store import lists as store
    from tests.store.test_lists import new_list

    kept, gone = new_list(db, registry), new_list(db, registry)
    store.delete_list(db, gone.saved.id, gone.token)
    found = store.read_versions(db, [(kept.saved.id, 1), (gone.saved.id, 1), (kept.saved.id, 2), ("nope", 1)])
    assert (
        list(found) == [(kept.saved.id, 1)]
        and found[kept.saved.id, 1].document == store.read_version(db, kept.saved.id, 1).document
    )


def test_a_renderer_failure_at_submission_still_answers_201_and_the_pack_tries_again(saved_client, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("renderer broke")

    monkeypatch.setattr(roster_pack, "roster_pdf", broken)
    event = make_event(saved_client)
    assert submit(saved_client, event, create(saved_client), player="Ann").status_code == 201
    monkeypatch.undo()
    assert pack(saved_client, event).status_code == 200


# --------------------------------------------------------------------------------------------
# The joined pack is kept until the next submission (issue 25: a join held /health)


def test_a_second_download_reads_the_kept_pack_and_answers_its_etag(saved_client, monkeypatch):
    event = make_event(saved_client, allow_illegal=True)
    for player in ("Ann", "Bo"):
        submit(saved_client, event, create(saved_client), player=player)
    first = pack(saved_client, event)
    assert first.status_code == 200 and first.headers["ETag"]

    def no_join(*args, **kwargs):
        raise AssertionError("the pack was joined again though no submission arrived")

    monkeypatch.setattr(roster_pack.pack_join, "join", no_join)
    second = pack(saved_client, event)
    assert second.status_code == 200 and second.data == first.data and second.headers["ETag"] == first.headers["ETag"]
    unchanged = saved_client.get(
        f"/api/v1/events/{event['id']}/roster-pack.pdf",
        headers={**organiser(event), "If-None-Match": first.headers["ETag"]},
    )
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == first.headers["ETag"]


def test_a_new_submission_makes_the_next_download_join_a_pack_with_it(saved_client):
    event = make_event(saved_client, allow_illegal=True)
    submit(saved_client, event, create(saved_client), player="Ann")
    before = pack(saved_client, event)
    submit(saved_client, event, create(saved_client), player="Bo")
    stale = saved_client.get(
        f"/api/v1/events/{event['id']}/roster-pack.pdf",
        headers={**organiser(event), "If-None-Match": before.headers["ETag"]},
    )
    assert stale.status_code == 200 and stale.headers["ETag"] != before.headers["ETag"]
    assert [item.title for item in PdfReader(io.BytesIO(stale.data)).outline] == ["Ann", "Bo"]


def count_rows(db, table, event):
    with db.reading() as conn:
        return conn.scalar(select(func.count()).select_from(table).where(table.c.event_id == event["id"]))


def test_deleting_an_event_removes_its_rendered_rosters_and_packs(saved_client, db):
    event, other = make_event(saved_client), make_event(saved_client)
    for each in (event, other):
        for player in ("Ann", "Bo"):
            submit(saved_client, each, create(saved_client), player=player)
        assert pack(saved_client, each).status_code == 200
    assert count_rows(db, event_rosters, event) == 2
    assert saved_client.delete(f"/api/v1/events/{event['id']}", headers=organiser(event)).status_code == 204
    assert count_rows(db, event_rosters, event) == 0
    assert count_rows(db, rendered.event_packs, event) == 0
    assert (count_rows(db, event_rosters, other), count_rows(db, rendered.event_packs, other)) == (
        2,
        1,
    )  # only that event's
    assert pack(saved_client, event).status_code == 410


def test_a_roster_or_pack_finished_after_its_event_was_deleted_is_not_kept(saved_client, db):
    event = make_event(saved_client)
    submit(saved_client, event, create(saved_client), player="Ann")
    assert saved_client.delete(f"/api/v1/events/{event['id']}", headers=organiser(event)).status_code == 204
    rendered.keep(db, rendered.RosterRef(event["id"], 1, "letter", roster_pack.renderer()), b"%PDF-late")
    assert count_rows(db, event_rosters, event) == 0
    rendered.keep_pack(db, rendered.PackKey(event["id"], "a4", roster_pack.renderer(), (1,)), b"%PDF-late")
    assert count_rows(db, rendered.event_packs, event) == 0
