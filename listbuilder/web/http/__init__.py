"""The HTTP plumbing under the blueprints: strict JSON bodies, the one error shape, the
flask-smorest wiring (OpenAPI), security headers, quotas, URL routing and the JSON provider.
Nothing here imports a blueprint."""
