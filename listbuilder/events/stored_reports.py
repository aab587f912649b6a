"""A submission's report as it was stored at submission, read in the shape answers have now.

A stored report is never rewritten: an entry shows the verdict and the issues it was accepted
with. But the API's report grows: an issue code that once sent no figures now always sends
them (``upgrade.count`` and ``upgrade.select``, issue 38), and the OpenAPI document declares
``data`` required for it. A report stored before keeps its verdict, messages and paths; the
figures it lacks are filled in as it is read, from the same list version validated now under
the event's pinned rules (the same book and settings, so the same issue at the same path).
Reports stored in the current shape are read as they are, with no validation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from listbuilder import issue_data

_WITH_DATA = frozenset(code for shape in issue_data.SHAPES for code in shape.codes)


def lacks_figures(report: Mapping[str, Any]) -> bool:
    """Whether *report* was stored before some of its issues' codes sent figures."""
    return any(issue["code"] in _WITH_DATA and not issue.get("data") for issue in report.get("issues", ()))


def current_shape(report: Mapping[str, Any], fresh: Callable[[], Mapping[str, Any]]) -> dict[str, Any]:
    """*report* with the figures its issues lack taken from *fresh()* (the same list checked
    now): the issue at the same path with the same code. An issue with no such twin (the
    validation changed since) is left as stored."""
    if not lacks_figures(report):
        return dict(report)
    twins = {(i["path"], i["code"]): i["data"] for i in fresh()["issues"] if i.get("data")}
    issues = []
    for issue in report["issues"]:
        data = twins.get((issue["path"], issue["code"])) if not issue.get("data") else None
        issues.append({**issue, "data": data} if data else dict(issue))
    return {**report, "issues": issues}
