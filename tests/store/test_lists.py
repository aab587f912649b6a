"""The saved-list store on a real database (SQLite file, and PostgreSQL when TEST_DATABASE_URL is set)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import threading

import pytest
from sqlalchemy import func, insert, select, text, update

from listbuilder.lists import saved
from listbuilder.lists.documents import parse_list
from listbuilder.store import Database
from listbuilder.store import events as stored_events
from listbuilder.store import lists as store
from listbuilder.store.errors import (
    ListGone,
    ListLocked,
    ListNotFound,
    StaleVersion,
    TokenMissing,
    TokenWrong,
    TooManyVersions,
)
from listbuilder.store.limits import MAX_VERSIONS_PER_LIST
from listbuilder.store.texts import book_texts
from tests.conftest import GOLDEN, round_trips


def golden(system: str = "grimdark-future", index: int = 0) -> dict:
    return json.loads(sorted((GOLDEN / system).glob("*.json"))[index].read_text())["list"]


def save_args(registry, document: dict):
    ready = saved.to_save(registry, parse_list(document))
    return ready.document_json, ready.rules, ready.texts


def new_list(db, registry, document: dict | None = None) -> store.NewList:
    return store.create_list(db, *save_args(registry, document or golden()))


def new_event(db, registry, name: str = "Store Open") -> stored_events.NewEvent:
    """An open event (deadline far ahead, illegal lists allowed) on the golden list's book."""
    _, rules, texts = save_args(registry, golden())
    return stored_events.create_event(
        db,
        name=name,
        system_id=rules.system_id,
        settings={"points_limit": 1000},
        books=[rules],
        texts=texts,
        deadline=dt.datetime(2099, 1, 1, tzinfo=dt.timezone.utc),
        allow_illegal=True,
    )


def renamed(document: dict, name: str) -> dict:
    return {**document, "name": name}


def fill_versions(db, list_id: str, up_to: int) -> None:
    """Give a list versions 2..*up_to* (copies of version 1) in one transaction: a thousand
    saves one by one would wait for a thousand disk syncs."""
    versions = store.list_versions
    with db.writing() as conn:
        first = (
            conn.execute(select(versions).where(versions.c.list_id == list_id, versions.c.number == 1)).mappings().one()
        )
        conn.execute(insert(versions), [{**first, "number": n} for n in range(2, up_to + 1)])
        conn.execute(update(store.saved_lists).where(store.saved_lists.c.id == list_id).values(head=up_to))


def test_create_then_read_gives_version_1_with_the_canonical_document_and_rules(db, registry):
    document = golden()
    new = new_list(db, registry, document)
    found = store.read_list(db, new.saved.id)
    assert found.version == 1 and not found.locked
    assert found.current.document == json.loads(save_args(registry, document)[0])
    book = registry.books[document["book"]]
    rules = found.current.rules
    assert (rules.book_id, rules.book_digest, rules.book_version) == (book.id, book.digest, book.version)
    assert rules.rules_version == saved.rules_version(book, registry.systems[book.system])


def test_ids_are_random_url_safe_and_at_least_64_bits_tokens_at_least_128(db, registry):
    made = [new_list(db, registry) for _ in range(5)]
    ids = {m.saved.id for m in made}
    assert len(ids) == 5
    for m in made:
        assert re.fullmatch(r"[A-Za-z0-9_-]{16}", m.saved.id)  # 16 base64 characters = 96 bits
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", m.token)  # 43 base64 characters = 256 bits


def test_the_edit_token_is_stored_only_as_its_sha256(db, registry):
    new = new_list(db, registry)
    with db.reading() as conn:
        row = conn.execute(select(store.saved_lists).where(store.saved_lists.c.id == new.saved.id)).one()
    assert new.token not in [str(value) for value in row]
    assert row.token_hash == hashlib.sha256(new.token.encode()).hexdigest()


def test_a_save_adds_a_version_and_leaves_earlier_versions_exactly_as_they_were(db, registry):
    document = golden()
    new = new_list(db, registry, document)
    with db.reading() as conn:
        before = conn.execute(select(store.list_versions).where(store.list_versions.c.list_id == new.saved.id)).all()
    after = store.save_version(db, new.saved.id, new.token, 1, *save_args(registry, renamed(document, "Second")))
    assert after.version == 2
    with db.reading() as conn:
        rows = conn.execute(
            select(store.list_versions)
            .where(store.list_versions.c.list_id == new.saved.id)
            .order_by(store.list_versions.c.number)
        ).all()
    assert rows[0] == before[0]
    assert [v.number for v in store.list_versions_of(db, new.saved.id)] == [1, 2]
    assert store.read_version(db, new.saved.id, 1).document["name"] == document.get("name", "")
    assert store.read_list(db, new.saved.id).current.document["name"] == "Second"


def test_a_save_made_to_an_old_version_is_refused_as_stale(db, registry):
    new = new_list(db, registry)
    store.save_version(db, new.saved.id, new.token, 1, *save_args(registry, renamed(golden(), "B")))
    with pytest.raises(StaleVersion) as caught:
        store.save_version(db, new.saved.id, new.token, 1, *save_args(registry, renamed(golden(), "C")))
    assert caught.value.current == 2
    assert store.read_list(db, new.saved.id).current.document["name"] == "B"


def test_saving_without_the_token_or_with_a_wrong_one_is_refused(db, registry):
    new = new_list(db, registry)
    args = save_args(registry, renamed(golden(), "X"))
    with pytest.raises(TokenMissing):
        store.save_version(db, new.saved.id, None, 1, *args)
    with pytest.raises(TokenWrong):
        store.save_version(db, new.saved.id, new.token[:-1] + ("A" if new.token[-1] != "A" else "B"), 1, *args)
    with pytest.raises(TokenWrong):
        store.save_version(db, new.saved.id, new_list(db, registry).token, 1, *args)  # another list's token
    assert store.read_list(db, new.saved.id).version == 1


def test_unknown_ids_and_versions_are_not_found(db, registry):
    with pytest.raises(ListNotFound):
        store.read_list(db, "no-such-list-id0")
    new = new_list(db, registry)
    with pytest.raises(ListNotFound):
        store.read_version(db, new.saved.id, 2)


def test_a_locked_list_keeps_its_id_and_history_and_takes_no_more_saves_or_deletes(db, registry):
    new = new_list(db, registry)
    store.save_version(db, new.saved.id, new.token, 1, *save_args(registry, renamed(golden(), "v2")))
    locked = store.lock_list(db, new.saved.id, new.token)
    assert locked.locked and locked.version == 2
    with pytest.raises(ListLocked):
        store.save_version(db, new.saved.id, new.token, 2, *save_args(registry, renamed(golden(), "v3")))
    with pytest.raises(ListLocked):
        store.delete_list(db, new.saved.id, new.token)
    assert store.lock_list(db, new.saved.id, new.token).locked_at == locked.locked_at  # locking again changes nothing
    assert [v.number for v in store.list_versions_of(db, new.saved.id)] == [1, 2]


def test_locking_needs_the_token_and_may_insist_on_the_current_version(db, registry):
    new = new_list(db, registry)
    with pytest.raises(TokenMissing):
        store.lock_list(db, new.saved.id, None)
    store.save_version(db, new.saved.id, new.token, 1, *save_args(registry, renamed(golden(), "v2")))
    with pytest.raises(StaleVersion):
        store.lock_list(db, new.saved.id, new.token, expected=1)
    assert not store.read_list(db, new.saved.id).locked


def test_deleting_removes_every_version_and_the_id_then_answers_gone(db, registry):
    new = new_list(db, registry)
    with pytest.raises(TokenWrong):
        store.delete_list(db, new.saved.id, "wrong")
    store.delete_list(db, new.saved.id, new.token)
    with pytest.raises(ListGone):
        store.read_list(db, new.saved.id)
    with pytest.raises(ListGone):
        store.list_versions_of(db, new.saved.id)
    with db.reading() as conn:
        assert (
            conn.execute(select(store.list_versions).where(store.list_versions.c.list_id == new.saved.id)).all() == []
        )


def test_a_copy_is_a_new_list_with_its_own_id_token_and_history(db, registry):
    new = new_list(db, registry)
    store.save_version(db, new.saved.id, new.token, 1, *save_args(registry, renamed(golden(), "second")))
    copy = store.copy_list(db, new.saved.id, 1)
    assert copy.saved.id != new.saved.id and copy.token != new.token and copy.saved.version == 1
    assert copy.saved.current.document == store.read_version(db, new.saved.id, 1).document
    store.save_version(db, copy.saved.id, copy.token, 1, *save_args(registry, renamed(golden(), "copy edited")))
    assert store.read_list(db, new.saved.id).current.document["name"] == "second"
    with pytest.raises(TokenWrong):
        store.save_version(db, copy.saved.id, new.token, 2, *save_args(registry, golden()))


def test_a_list_keeps_at_most_max_versions_per_list_and_a_refused_save_stores_nothing(db, registry):
    new = new_list(db, registry)
    fill_versions(db, new.saved.id, MAX_VERSIONS_PER_LIST - 1)
    last = store.save_version(
        db, new.saved.id, new.token, MAX_VERSIONS_PER_LIST - 1, *save_args(registry, renamed(golden(), "the last"))
    )
    assert last.version == MAX_VERSIONS_PER_LIST == 1000
    for expected in (MAX_VERSIONS_PER_LIST, None, 3):  # current, "whatever is current", stale: the limit comes first
        with pytest.raises(TooManyVersions) as refused:
            store.save_version(
                db, new.saved.id, new.token, expected, *save_args(registry, renamed(golden(), "one too many"))
            )
        assert (
            refused.value.status == 409
            and refused.value.limit == MAX_VERSIONS_PER_LIST
            and "1000 versions" in refused.value.message
        )
    with db.reading() as conn:
        kept = conn.scalar(
            select(func.count()).select_from(store.list_versions).where(store.list_versions.c.list_id == new.saved.id)
        )
    assert kept == MAX_VERSIONS_PER_LIST and store.read_list(db, new.saved.id).current.document["name"] == "the last"
    copy = store.copy_list(db, new.saved.id)  # the way on: a copy starts again at version 1
    assert store.save_version(db, copy.saved.id, copy.token, 1, *save_args(registry, golden())).version == 2
    assert store.lock_list(db, new.saved.id, new.token).locked


def test_book_and_system_texts_are_stored_once_by_digest(db, registry):
    document = golden()
    for _ in range(3):
        new_list(db, registry, document)
    book = registry.books[document["book"]]
    with db.reading() as conn:
        rows = conn.execute(
            select(book_texts).where(book_texts.c.digest.in_([book.digest, registry.systems[book.system].digest]))
        ).all()
    assert len(rows) == 2
    assert {hashlib.sha256(r.text.encode()).hexdigest() for r in rows} == {r.digest for r in rows}


def test_of_two_concurrent_saves_from_the_same_version_exactly_one_wins(db, registry):
    for round_ in range(10):
        new = new_list(db, registry)
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def save(name: str) -> None:
            args = save_args(registry, renamed(golden(), name))
            barrier.wait()
            try:
                store.save_version(db, new.saved.id, new.token, 1, *args)
                outcomes.append("saved")
            except StaleVersion:
                outcomes.append("stale")

        threads = [threading.Thread(target=save, args=(f"writer {i}",)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["saved", "stale"], f"round {round_}: {outcomes}"
        assert [v.number for v in store.list_versions_of(db, new.saved.id)] == [1, 2]


def test_concurrent_saves_over_whatever_is_current_all_land_one_after_the_other(db, registry):
    """``If-Match: *`` asks for no particular version: racing saves are queued, none refused."""
    new = new_list(db, registry)
    barrier = threading.Barrier(4)
    errors: list[Exception] = []

    def save(name: str) -> None:
        args = save_args(registry, renamed(golden(), name))
        barrier.wait()
        try:
            store.save_version(db, new.saved.id, new.token, None, *args)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(f"writer {i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [v.number for v in store.list_versions_of(db, new.saved.id)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("list_id", ["with\x00nul", "x" * 10_000, "no/slash", "ünïcode", ""])
def test_ids_no_list_can_have_are_not_found_without_asking_the_database(db, list_id):
    for read in (store.read_list, store.read_head, store.list_versions_of):
        with pytest.raises(ListNotFound):
            read(db, list_id)
    with pytest.raises(ListNotFound):
        store.save_version(db, list_id, "token", 1, "{}", None, {})


@pytest.mark.parametrize("number", [0, -1, 2**31, 10**30])
def test_version_numbers_out_of_range_are_not_found(db, registry, number):
    new = new_list(db, registry)
    with pytest.raises(ListNotFound):
        store.read_version(db, new.saved.id, number)


def test_a_read_sees_every_change_another_process_committed(db, database_url, registry):
    """Whether a rendered copy is current is asked of the database on every read, never kept:
    a second Database (another worker or machine) saves, locks and deletes, and each read
    here sees it at once."""
    other = Database(database_url)
    try:
        new = new_list(db, registry)
        assert store.read_head(db, new.saved.id) == store.ListHead(new.saved.id, 1, False)
        store.save_version(other, new.saved.id, new.token, 1, *save_args(registry, renamed(golden(), "two")))
        assert store.read_head(db, new.saved.id) == store.ListHead(new.saved.id, 2, False)
        store.lock_list(other, new.saved.id, new.token)
        assert store.read_head(db, new.saved.id) == store.ListHead(new.saved.id, 2, True)
        gone = new_list(db, registry)
        store.read_head(db, gone.saved.id)
        store.delete_list(other, gone.saved.id, gone.token)
        with pytest.raises(ListGone):
            store.read_head(db, gone.saved.id)
    finally:
        other.dispose()


def test_reading_which_version_is_current_is_one_statement_in_one_round_trip(db, registry):
    """No BEGIN or COMMIT around it: outside a transaction the database runs one statement as
    its own transaction, which sees every commit made before it."""
    new = new_list(db, registry)
    store.read_head(db, new.saved.id)  # a connection's first read may prepare the statement first
    with round_trips(db) as sent:
        assert store.read_head(db, new.saved.id).version == 1
    assert len(sent) == 1, sent
    assert not re.search(r"\b(BEGIN|COMMIT|ROLLBACK)\b", sent[0], re.IGNORECASE), sent


def test_a_read_prepares_its_statement_again_when_the_connection_dropped_it(db, registry):
    """psycopg sends DEALLOCATE ALL after rolling back a transaction in which it had prepared
    statements of its own; the next read on that connection prepares ours again."""
    if db.backend != "postgresql":
        pytest.skip("prepared statements: PostgreSQL only")
    new = new_list(db, registry)
    store.read_head(db, new.saved.id)
    db._held.connection.pgconn.exec_(b"DEALLOCATE ALL")
    with round_trips(db) as sent:
        assert store.read_head(db, new.saved.id).version == 1
    assert [step.split(";")[0].split()[0] for step in sent] == ["Bind", "Parse", "Bind"], sent


def test_a_read_goes_through_the_pool_while_another_thread_uses_the_reading_connection(db, registry):
    new = new_list(db, registry)
    store.read_head(db, new.saved.id)
    with db._held.lock:  # as while another thread reads
        assert store.read_head(db, new.saved.id).version == 1


def test_a_read_on_a_connection_that_went_away_is_answered_on_a_new_one(db, registry):
    new = new_list(db, registry)
    store.read_head(db, new.saved.id)
    db._held.connection.close()  # as when the network goes away
    assert store.read_head(db, new.saved.id).version == 1


def test_a_read_after_the_server_dropped_the_connection_is_answered_on_a_new_one(db, registry):
    """What a PostgreSQL restart or an idle timeout does: the server ends the session, and the
    kept connection only finds out when it next sends a query."""
    if db.backend != "postgresql":
        pytest.skip("the server ending a session: PostgreSQL only")
    new = new_list(db, registry)
    store.read_head(db, new.saved.id)
    kept = db._held.connection
    with db.engine.connect() as other:
        assert other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": kept.info.backend_pid}).scalar()
    assert store.read_head(db, new.saved.id).version == 1
    assert db._held.connection is not kept


def test_a_forked_child_reads_on_its_own_connection_and_the_parent_goes_on_on_its_own(db, registry):
    """The reading connection is closed before a fork: a child sharing its socket would
    interleave its queries with the parent's (gunicorn forks workers from a preloaded app)."""
    import os

    new = new_list(db, registry)
    assert store.read_head(db, new.saved.id).version == 1
    child = os.fork()
    if child == 0:
        code = 1
        try:
            code = 0 if db._held.connection is None and store.read_head(db, new.saved.id).version == 1 else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store.read_head(db, new.saved.id).version == 1
