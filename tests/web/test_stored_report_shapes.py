"""An event entry keeps the report it was submitted with, and answers in the shape the
document declares now (issue 38): a report stored before an issue code always sent its
figures gets them filled in as it is read, its verdict and messages as stored."""

from __future__ import annotations

import json

from sqlalchemy import update

from listbuilder.store.events import event_submissions
from tests.web.test_events_api import ILLEGAL, make_event, organiser, submit
from tests.web.test_saved_api import create


def stored_in_an_older_shape(app, event_id):
    """Take ``data`` out of every stored issue of the event, as reports were stored before
    those codes sent figures; the message says which."""
    db = app.extensions["listbuilder.database"]
    with db.engine.begin() as conn:
        rows = conn.execute(event_submissions.select().where(event_submissions.c.event_id == event_id)).mappings()
        for row in list(rows):
            report = json.loads(row["report"])
            for issue in report["issues"]:
                issue.pop("data", None)
                issue["message"] += " (as stored then)"
            conn.execute(
                update(event_submissions)
                .where(event_submissions.c.event_id == event_id, event_submissions.c.number == row["number"])
                .values(report=json.dumps(report))
            )


def test_an_entry_stored_without_figures_answers_with_them_and_keeps_what_it_said(saved_app, saved_client):
    event = make_event(saved_client, allow_illegal=True)
    made = create(saved_client, ILLEGAL)
    first = submit(saved_client, event, made)
    assert first.status_code == 201, first.json
    figures = {i["code"]: i["data"] for i in first.json["report"]["issues"] if "data" in i}
    assert figures["upgrade.count"] == {"allowed": 2, "asked": 3}

    stored_in_an_older_shape(saved_app, event["id"])
    report = saved_client.get(f"/api/v1/events/{event['id']}/report", headers=organiser(event)).json
    (entry,) = report["entries"]
    count = next(i for i in entry["issues"] if i["code"] == "upgrade.count")
    assert count["data"] == {"allowed": 2, "asked": 3}  # filled: the document requires it
    assert count["message"].endswith("(as stored then)") and entry["valid"] is False  # the rest as stored
    repeat = submit(saved_client, event, made)  # the same submission again answers the stored report
    assert repeat.status_code == 200 and repeat.json["report"]["issues"][0]["message"].endswith("(as stored then)")
    assert all("data" in i for i in repeat.json["report"]["issues"] if i["code"] == "upgrade.count")
    # (the ajv hook of tests/conftest.py checks both answers against today's document)
