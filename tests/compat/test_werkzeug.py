"""werkzeug still asks ``listbuilder.compat.werkzeug.LazyBuilderRule`` for its URL builders."""

from __future__ import annotations

from werkzeug.routing import Map, Rule

from listbuilder.compat.werkzeug import LazyBuilderRule


class Watched(LazyBuilderRule):
    """Counts werkzeug's calls of the private ``Rule._compile_builder``."""

    asked: list[bool] = []

    def _compile_builder(self, append_unknown=True):
        Watched.asked.append(append_unknown)
        return super()._compile_builder(append_unknown)


def test_binding_a_rule_asks_our_hook_and_building_a_url_runs_what_it_returned():
    Watched.asked = []
    urls = Map([Watched("/lists/<int:number>", endpoint="list")]).bind("localhost")
    assert sorted(Watched.asked) == [False, True]  # both builders come from our hook
    assert urls.build("list", {"number": 7}) == "/lists/7"
    assert urls.build("list", {"number": 7, "paper": "a4"}) == "/lists/7?paper=a4"
    assert urls.build("list", {"number": 7, "paper": "a4"}, append_unknown=False) == "/lists/7"


def test_the_builder_is_compiled_on_first_use_only(monkeypatch):
    compiled = []
    werkzeugs = Rule._compile_builder
    monkeypatch.setattr(
        Rule,
        "_compile_builder",
        lambda self, append_unknown=True: compiled.append(append_unknown) or werkzeugs(self, append_unknown),
    )
    urls = Map([LazyBuilderRule("/books/<book>", endpoint="book")]).bind("localhost")
    assert compiled == []
    assert urls.build("book", {"book": "ember"}) == "/books/ember"
    assert compiled == [True]
