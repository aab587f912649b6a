"""The only place that uses another package's private names.

Speed and strictness led us into a few of our dependencies' internals (an overridden private
method, an attribute they set for themselves, a function we replace). Each use lives here, one
module per package, as a small hook with a docstring saying what it relies on and why; the rest
of ``listbuilder`` calls these hooks and nothing private. ``tests/compat/`` has a test per hook
that goes through the package's public entry point and checks the package still calls it (or
still reads what we set), so an upgrade that changes an internal fails in CI instead of making
rosters slower or error answers different without a word. ``pyproject.toml`` caps each of these
packages below its next minor (or major) release, so such an upgrade is always a deliberate one:
raise the bound, run ``make upgrade-check``, fix the hook here.

Not counted as private: marshmallow's ``Field._serialize``/``_deserialize``, which marshmallow
documents as the methods a custom field overrides.

Modules:

- ``flask_smorest``: the OpenAPI document built on first read; error statuses documented in one step
- ``gunicorn``: gunicorn's own error answers in our error shape, and no ``Server`` header
- ``marshmallow``: each schema class's hook table read from our classes only
- ``pygal``: pygal imported without the map-plugin import finder it adds to ``sys.meta_path``
- ``weasyprint``: a document styled with our user-agent stylesheet, and the renderer's other hooks
- ``werkzeug``: URL rules whose builders are made on first use
"""
