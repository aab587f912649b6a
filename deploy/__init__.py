"""The production stack (docs/deploy.md): nginx in front of two or more gunicorn instances.

- ``nginx/listbuilder.conf.in``: the site (upstream and server blocks), for an ``http {}`` block
- ``nginx/stack.conf.in``: a whole nginx.conf around the site, for ``make stack`` and the tests
- ``systemd/listbuilder@.service.in``: one gunicorn instance per port, as a template unit
- ``render``: fills the templates (``python -m deploy.render --help``)
- ``stack``: ``make stack``, the whole stack on this machine in the foreground (``Stack``)

Not part of the ``listbuilder`` package: how we serve it, not what it is (the tests import it
as ``deploy.stack``, as they import ``tests.loopback``).
"""
