"""The HTTP plumbing under the blueprints: strict JSON bodies, the one error shape, the
flask-smorest wiring (OpenAPI), security headers, quotas, URL routing and the JSON provider.
Nothing here imports a blueprint.

Modules:

- ``bodies``: strict JSON request bodies (size, depth, duplicate keys), errors naming the field
- ``errors``: the one error shape, ``{code, status, message, errors}``, for every failure
- ``rest``: the flask-smorest wiring: blueprints whose operations document their statuses
- ``openapi``: the OpenAPI document's family unions and components
- ``quotas``: rate limits and concurrent-work bounds per client
- ``security``: security headers and the content security policy
- ``downloads``: file names and Content-Disposition for downloads
- ``static_files``: static files under the release's version, cached a year; the version nginx is given
- ``public_url``: the service's public address, never taken from the Host header
- ``json_provider``: JSON answers in schema order (orjson)
"""
