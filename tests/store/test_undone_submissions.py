"""Migration 0008 (issue 35): submissions made before it stay live, and an undone one counts
nowhere after (the store's reads, the player cap, the next number). SQLite, and PostgreSQL
when TEST_DATABASE_URL is set."""

from __future__ import annotations

from sqlalchemy import column, insert, table

from listbuilder.store import Database
from listbuilder.store.database import utcnow
from tests.store.test_lists import new_event, new_list
from tests.store.test_migrations import upgrade_to

OLD_SUBMISSIONS = table(  # event_submissions as 0007 left it: no undone_at
    "event_submissions",
    *(
        column(name)
        for name in (
            "event_id",
            "number",
            "player",
            "player_key",
            "player_token_hash",
            "list_id",
            "list_version",
            "valid",
            "report",
            "verification_code",
            "submitted_at",
        )
    ),
)


def test_0008_keeps_every_earlier_submission_live_and_an_undone_one_counts_nowhere(empty_database_url, registry):
    from listbuilder.store import event_players, rounds
    from listbuilder.store.events import read_as_organiser

    db = Database(empty_database_url)
    try:
        upgrade_to(db, "0007_event_packs")
        made = new_event(db, registry)
        event_id = made.event.id
        lists = [new_list(db, registry) for _ in range(2)]
        with db.writing() as conn:
            conn.execute(
                insert(OLD_SUBMISSIONS),
                [
                    {
                        "event_id": event_id,
                        "number": n,
                        "player": name,
                        "player_key": name.casefold(),
                        "player_token_hash": "0" * 64,
                        "list_id": saved.saved.id,
                        "list_version": 1,
                        "valid": True,
                        "report": "{}",
                        "verification_code": "AAAA-AAAA",
                        "submitted_at": utcnow(),
                    }
                    for n, name, saved in ((1, "Ann", lists[0]), (2, "Bob", lists[1]))
                ],
            )
        db.upgrade()
        _, found = read_as_organiser(db, event_id, made.token)
        assert [(s.number, s.player, s.player_key) for s in found] == [(1, "Ann", "ann"), (2, "Bob", "bob")]
        assert event_players.players_and_known(db, event_id, "BOB") == (2, True)

        rounds.change_day(db, event_id, made.token, lambda day: [rounds.UndoSubmission(2)])
        _, found = read_as_organiser(db, event_id, made.token)
        assert [s.number for s in found] == [1]
        assert event_players.players_and_known(db, event_id, "Bob") == (1, False)
        assert [s.number for s in rounds.read_day(db, event_id).submissions] == [1]
    finally:
        db.dispose()
