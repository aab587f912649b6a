"""Validation results: every problem in a list as an Issue, gathered in a ValidationReport.

Invalid armies are reported, never raised: a validator returns all issues at once and
``valid`` is derived from them (errors make a list illegal; warnings and infos do not).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

ERROR = "error"
WARNING = "warning"
INFO = "info"


@dataclass(frozen=True)
class Issue:
    """One problem: a stable ``code``, where it is (a JSON path into the submitted list),
    which rule clause it enforces, and optional machine-readable ``data``."""

    code: str
    message: str
    path: str
    clause: str
    severity: str = ERROR
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "clause": self.clause,
        }
        if self.data:
            out["data"] = dict(self.data)
        return out


@dataclass(frozen=True)
class ValidationReport:
    """Every issue, the list's totals, and per entry (by key) its cost and model count.

    ``entries`` lets a client show each unit's price without repeating the pricing rules.
    """

    issues: tuple[Issue, ...]
    totals: Mapping[str, Any]
    entries: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not any(issue.severity == ERROR for issue in self.issues)

    @property
    def codes(self) -> list[str]:
        return [issue.code for issue in self.issues]

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "totals": dict(self.totals),
            "issues": [issue.as_dict() for issue in self.issues],
            "entries": {key: dict(value) for key, value in self.entries.items()},
        }

    @classmethod
    def of(cls, issues: Iterable[Issue], totals: Mapping[str, Any], resolved: Iterable[Any] = ()) -> ValidationReport:
        """Build a report; *resolved* entries (``listbuilder.resolve.ResolvedEntry``) fill ``entries``."""
        entries = {r.key: {"cost": r.cost.as_dict(), "models": r.models} for r in resolved}
        return cls(tuple(issues), totals, entries)
