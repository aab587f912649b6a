"""The one error an import raises, naming the place in the source JSON at fault."""

from __future__ import annotations

from typing import Any


class ImportFailed(Exception):
    """A file that cannot be imported: its ``path`` in the source JSON and what is wrong there.

    ``problems`` holds every problem when there are several (a converted book our loader
    refuses); the first one is also ``path`` / ``message``.
    """

    def __init__(self, code: str, path: str, message: str, problems: list[tuple[str, str]] | None = None):
        self.code = code
        self.path = path
        self.message = message
        self.problems = problems or [(path, message)]
        super().__init__(f"{path}: {message}" if path else message)

    def as_errors(self) -> dict[str, list[str]]:
        """``{path: [message, ...]}``, the shape of the API's ``errors`` field."""
        errors: dict[str, list[str]] = {}
        for path, message in self.problems:
            errors.setdefault(path or "(body)", []).append(message)
        return errors

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self), "errors": self.as_errors()}
