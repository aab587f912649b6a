"""Command line: the same operations as the API, from the shell.

listbuilder check-books [FOLDER...]     load every army book, print every problem
listbuilder validate LIST.json          validate a list, print the report
listbuilder preview REQUEST.json        preview a combat (same request as POST /api/v1/previews)
listbuilder pdf LIST.json -o R.pdf      print a list as a PDF roster (--paper a4|letter, --layout sheet|cards)
listbuilder text LIST.json              the roster as one line per unit, for forums
listbuilder db upgrade                  apply the saved-list database's migrations (DATABASE_URL)
listbuilder db current                  print the migration the database is at
listbuilder import-book FILE... --into F  Army Forge book exports -> YAML books in folder F
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.books.lines import with_line
from listbuilder.books.loader import load_registry
from listbuilder.books.registry import BookLoadError
from listbuilder.books.settings import default_books_folders
from listbuilder.lists.documents import ListError, parse_list, validate_list


def _registry(folders: str | list[str] | None) -> Any:
    """The registry of the given folders (a list, or one string with os.pathsep between
    folders, as LISTBUILDER_BOOKS); the configured default when none is given."""
    if isinstance(folders, str):
        folders = [f for f in folders.split(os.pathsep) if f]
    try:
        return load_registry(folders or None)
    except BookLoadError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        raise SystemExit(2) from None


def _read_json(path: str) -> Any:
    """A list or preview request's JSON, read as the API reads a request body: the same reader
    refuses the same text (a NUL character, a lone surrogate, nesting past its depth), naming
    the field, so the commands and the API accept exactly the same files."""
    from listbuilder.web.http.bodies import BodyError, load_json_body

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        problems = [f"cannot read: {exc}"]
    else:
        try:
            return load_json_body(data)
        except BodyError as exc:
            problems = [
                message if field == "(body)" else f"{field}: {message}"
                for field, messages in exc.errors.items()
                for message in messages
            ]
    for problem in problems:
        print(f"{path}: {problem}", file=sys.stderr)
    raise SystemExit(2)


def cmd_check_books(args: argparse.Namespace) -> int:
    registry = _registry(args.folder)
    for warning in registry.warnings:
        print(with_line(warning), file=sys.stderr)
    for system in registry.systems.values():
        books = registry.books_of(system.id)
        print(f"{system.id}: {len(system.glossary)} glossary rules, {len(books)} books")
        for book in books:
            print(f"  {book.id}: {len(book.units)} units, {len(book.sections)} upgrade sections ({book.source})")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    registry = _registry(args.books)
    try:
        army = parse_list(_read_json(args.list))
        report = validate_list(registry, army)
    except ListError as exc:
        print(json.dumps(exc.as_dict(), indent=2), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(("legal" if report.valid else "NOT LEGAL") + f" - totals: {json.dumps(report.totals)}")
        for issue in report.issues:
            print(f"  [{issue.severity}] {issue.code} at {issue.path}: {issue.message} ({issue.clause})")
    return 0 if report.valid else 1


def cmd_preview(args: argparse.Namespace) -> int:
    from listbuilder.combat import PreviewError, preview
    from listbuilder.shapes.preview_requests import load_request

    registry = _registry(args.books)
    try:
        result = preview(registry, load_request(registry, _read_json(args.request)))
    except PreviewError as exc:
        print(json.dumps(exc.as_dict(), indent=2), file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2))
    return 0


def cmd_pdf(args: argparse.Namespace) -> int:
    from listbuilder.printing.pdf import roster_pdf  # WeasyPrint loads only when a PDF is asked for

    registry = _registry(args.books)
    try:
        pdf = roster_pdf(registry, parse_list(_read_json(args.list)), paper=args.paper, layout=args.layout, cache=None)
    except ListError as exc:
        print(json.dumps(exc.as_dict(), indent=2), file=sys.stderr)
        return 2
    Path(args.output).write_bytes(pdf)
    print(f"{args.output}: {len(pdf)} bytes")
    return 0


def cmd_text(args: argparse.Namespace) -> int:
    from listbuilder.printing.rosters import build_roster, roster_text

    registry = _registry(args.books)
    try:
        print(roster_text(build_roster(registry, parse_list(_read_json(args.list)))), end="")
    except ListError as exc:
        print(json.dumps(exc.as_dict(), indent=2), file=sys.stderr)
        return 2
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    import os

    from flask import Flask

    from listbuilder.store import Database
    from listbuilder.store.database import head_revision
    from listbuilder.web.context import database_url

    instance = Flask("listbuilder.web").instance_path  # the app's instance folder, as create_app sees it
    try:
        db = Database(database_url(args.url or os.environ.get("LISTBUILDER_DATABASE_URL"), instance))
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    try:
        if args.db_command == "upgrade":
            applied = db.upgrade()
            print(f"{db!r}: " + (f"applied {', '.join(applied)}" if applied else f"already at {head_revision()}"))
        else:
            print(f"{db!r}: at {db.revision() or 'no migration (empty database)'}; newest is {head_revision()}")
    finally:
        db.dispose()


def _read_book_file(name: str) -> Any:
    """A book export's JSON, read as ``POST /api/v1/books/import`` reads its body: the same
    reader refuses the same text (a NUL character, a lone surrogate, nesting past its depth),
    naming the field, so what the command writes the API would have taken. Raises ImportFailed."""
    from listbuilder.importers import ImportFailed
    from listbuilder.web.http.bodies import BodyError, load_json_body

    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as exc:
        raise ImportFailed("unreadable", name, f"cannot read: {exc}") from None
    try:
        return load_json_body(data)
    except BodyError as exc:
        problems = [
            (name if field == "(body)" else f"{name}: {field}", message)
            for field, messages in exc.errors.items()
            for message in messages
        ]
        raise ImportFailed(
            "not_json" if exc.status == 400 else "invalid_text", problems[0][0], problems[0][1], problems
        ) from None


def cmd_import_book(args: argparse.Namespace) -> int:
    """Army Forge book exports -> our YAML in a books folder the service loads."""
    from listbuilder.importers import ImportFailed
    from listbuilder.importers.book_files import plan_imports, write_planned

    folders = [Path(f) for f in (args.books.split(os.pathsep) if args.books else []) if f] or default_books_folders()
    into = Path(args.into) if args.into else (folders[-1] if len(folders) > 1 else None)
    if into is None:
        print(
            "say where the books go: --into FOLDER (and add FOLDER to LISTBUILDER_BOOKS so the service loads it)",
            file=sys.stderr,
        )
        return 2
    loaded = [*folders, into] if into.resolve() not in {f.resolve() for f in folders} and into.is_dir() else folders
    registry = _registry([str(f) for f in loaded])
    try:
        planned = plan_imports(
            [(name, _read_book_file(name)) for name in args.files], registry.systems, registry.books, into
        )
    except ImportFailed as exc:
        for path, message in exc.problems:
            print(f"{path}: {message}", file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return 2
    write_planned(planned)
    for plan in planned:
        book = plan.converted.book
        print(
            f"{plan.path}: {book.name} ({book.system}), {len(book.units)} units, {len(book.sections)} upgrade sections"
        )
        for note in plan.converted.notes:
            print(f"  note: {note}")
        for warning in plan.converted.warnings:
            print(f"  warning: {warning.path}: {warning.message}")
    if into.resolve() not in {f.resolve() for f in folders}:
        configured = os.pathsep.join(str(f) for f in (*folders, into))
        print(f"the service loads these books once {into} is in LISTBUILDER_BOOKS, e.g. LISTBUILDER_BOOKS={configured}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from listbuilder.printing.html import LAYOUTS, PAPERS  # the paper sizes and layouts the renderer knows

    parser = argparse.ArgumentParser(
        prog="listbuilder", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    books = argparse.ArgumentParser(add_help=False)  # the option every list command shares
    books.add_argument(
        "--books",
        default=None,
        help=f"army book folders, {os.pathsep!r}-separated (default: LISTBUILDER_BOOKS or army_books/)",
    )
    check = sub.add_parser("check-books", help="load every army book and report problems")
    check.add_argument(
        "folder",
        nargs="*",
        help="book folders, each laid out like army_books/ (default: LISTBUILDER_BOOKS or army_books/)",
    )
    check.set_defaults(func=cmd_check_books)
    validate = sub.add_parser("validate", parents=[books], help="validate an army list (JSON file, or - for stdin)")
    validate.add_argument("list")
    validate.add_argument("--json", action="store_true", help="print the report as JSON")
    validate.set_defaults(func=cmd_validate)
    prev = sub.add_parser("preview", parents=[books], help="preview a combat (request JSON file, or - for stdin)")
    prev.add_argument("request")
    prev.set_defaults(func=cmd_preview)
    pdf = sub.add_parser("pdf", parents=[books], help="print an army list as a PDF roster (legal or not)")
    pdf.add_argument("list")
    pdf.add_argument("-o", "--output", default="roster.pdf", help="PDF file to write (default: roster.pdf)")
    pdf.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    pdf.add_argument(
        "--layout",
        choices=sorted(LAYOUTS),
        default="sheet",
        help="sheet (compact, the default) or cards (one card per unit)",
    )
    pdf.set_defaults(func=cmd_pdf)
    imp = sub.add_parser("import-book", parents=[books], help="convert Army Forge book exports (JSON) into YAML books")
    imp.add_argument("files", nargs="+", metavar="FILE", help="Army Forge book export (.json), or - for stdin")
    imp.add_argument(
        "--into",
        default=None,
        help="books folder to write into (default: the last folder of LISTBUILDER_BOOKS when it names several)",
    )
    imp.set_defaults(func=cmd_import_book)
    text = sub.add_parser("text", parents=[books], help="print an army list as compact text, one unit per line")
    text.add_argument("list")
    text.set_defaults(func=cmd_text)
    db = sub.add_parser("db", help="the database of saved lists")
    db.add_argument(
        "db_command", choices=["upgrade", "current"], help="upgrade: apply migrations; current: show where it is"
    )
    db.add_argument("--url", default=None, help="database URL (default: $DATABASE_URL, else SQLite in instance/)")
    db.set_defaults(func=cmd_db)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
