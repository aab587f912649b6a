"""flask-smorest still calls and reads what ``listbuilder.compat.flask_smorest`` relies on.

Each test sets up a small API through flask-smorest's public calls (``Api(app)``,
``register_converter``, ``register_blueprint``, the decorators, the served document) and
compares what comes out with what flask-smorest's own ``Api`` makes of the same set-up.
"""

from __future__ import annotations

import flask_smorest
import marshmallow as ma
from flask import Flask
from werkzeug.routing import BaseConverter

from listbuilder.compat.flask_smorest import LazySpecApi, add_responses, api_of, copy_documentation

CONFIG = {
    "API_TITLE": "Things",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api",
    "OPENAPI_JSON_PATH": "openapi.json",
}


class ThingKey(BaseConverter):
    regex = "t[0-9]+"


def thing_key_schema(converter: BaseConverter) -> dict[str, str]:
    return {"type": "string", "pattern": "^t[0-9]+$"}


class Thing(ma.Schema):
    name = ma.fields.String()


class Unchanging(Thing):
    def __deepcopy__(self, memo):
        return self


class Watched(LazySpecApi):
    """Counts the calls flask-smorest makes to the private ``_init_spec``."""

    def __init__(self, *args, **kwargs):
        self.init_spec_calls = 0
        super().__init__(*args, **kwargs)

    def _init_spec(self, **kwargs):
        self.init_spec_calls += 1
        super()._init_spec(**kwargs)


def build(api_class, *, converter_late=False):
    """An app with one blueprint of two operations, set up through flask-smorest's public calls."""
    app = Flask(__name__)
    app.config.update(CONFIG)
    app.url_map.converters["thing"] = ThingKey
    api = api_class(app)
    if not converter_late:
        api.register_converter(ThingKey, thing_key_schema)
    blp = flask_smorest.Blueprint("things", __name__, url_prefix="/things", description="Things we keep")
    seen = {}

    @blp.route("/<thing:key>")
    @blp.response(200, Thing)
    def get_thing(key):
        """One thing."""
        seen["marker"] = getattr(flask_smorest.current_api, "marker", None)
        return {"name": key}

    def served(key):
        """Another thing, served without the documenting wrappers."""
        return {"name": key}

    documented = blp.alt_response(404, description="no such thing")(blp.response(200, Thing)(served))
    copy_documentation(documented, served)
    blp.add_url_rule("/other/<thing:key>", view_func=served, endpoint="other", methods=["GET"])
    if converter_late:
        api.spec  # noqa: B018 - built before the converter is registered
        api.register_converter(ThingKey, thing_key_schema)
    api.register_blueprint(blp)
    return app, api, seen


def test_init_app_calls_our_hook_and_the_document_waits_for_its_first_reader():
    app, api, _ = build(Watched)
    assert api.init_spec_calls == 1
    assert api._spec is None  # routed, not documented
    assert app.test_client().get("/things/t1").get_json() == {"name": "t1"}
    assert api._spec is None
    assert app.test_client().get("/api/openapi.json").status_code == 200
    assert api._spec is not None


def test_the_document_is_the_one_flask_smorest_builds_at_once():
    ours = build(LazySpecApi)[0].test_client().get("/api/openapi.json").get_json()
    theirs = build(flask_smorest.Api)[0].test_client().get("/api/openapi.json").get_json()
    assert ours == theirs
    # the converter documents the path parameter, the copied documentation its responses
    parameter = ours["paths"]["/things/{key}"]["parameters"][0]
    assert parameter["schema"] == {"type": "string", "pattern": "^t[0-9]+$"}
    assert {"200", "404"} <= set(ours["paths"]["/things/other/{key}"]["get"]["responses"])
    assert ours["tags"] == [{"name": "things", "description": "Things we keep"}]


def test_a_converter_registered_after_the_document_is_built_still_documents_its_paths():
    app, api, _ = build(LazySpecApi, converter_late=True)
    spec = app.test_client().get("/api/openapi.json").get_json()
    assert spec["paths"]["/things/{key}"]["parameters"][0]["schema"]["pattern"] == "^t[0-9]+$"


def test_a_request_finds_its_api_and_api_of_finds_the_apps():
    app, api, seen = build(LazySpecApi)
    api.marker = object()
    app.test_client().get("/things/t2")
    assert seen["marker"] is api.marker and api_of(app) is api


def test_add_responses_documents_what_alt_response_decorators_would():
    blp = flask_smorest.Blueprint("things", __name__)
    thing = Unchanging()  # flask-smorest's deep copies keep it, so the two dicts compare

    def view():
        return {}

    stacked = blp.alt_response(404, schema=thing, description="none")(
        blp.alt_response(422, schema=thing, description="bad")(blp.response(200, thing)(view))
    )
    ours = blp.response(200, thing)(view)
    before = ours._apidoc
    add_responses(ours, [(422, thing, "bad"), (404, thing, "none")])
    assert ours._apidoc == stacked._apidoc
    assert list(ours._apidoc["response"]["responses"]) == [200, 422, 404]
    assert "422" not in str(before)  # the dict it had is not changed


def test_responses_added_without_wrapping_are_served_in_the_document():
    app = Flask(__name__)
    app.config.update(CONFIG)
    api = LazySpecApi(app)
    blp = flask_smorest.Blueprint("things", __name__, url_prefix="/things")

    @blp.response(200, Thing)
    def things():
        return {"name": "t"}

    add_responses(things, [(409, Thing(), "taken")])
    blp.route("/")(things)  # the route keeps the documentation its view has
    api.register_blueprint(blp)
    served = app.test_client().get("/api/openapi.json").get_json()
    assert served["paths"]["/things/"]["get"]["responses"]["409"]["description"] == "taken"
