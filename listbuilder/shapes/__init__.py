"""API shapes: the marshmallow schemas of what the HTTP API reads and answers (and the OpenAPI
document describes). Beside the web layer, which alone uses them; file formats they reuse come
from ``listbuilder.formats``."""
