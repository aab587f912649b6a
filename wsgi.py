"""The gunicorn entry point: the app, with its database opened before workers fork."""

from listbuilder.web import create_app, warm_up

app = warm_up(create_app())
