"""The API's OpenAPI schema (``/api/openapi.json``) loads as JSON and documents every call the API routes,
and the browsable documentation beside it (``/api/docs``) is served from the site itself (issue 17)."""

from __future__ import annotations

import re

from django.urls import reverse

from api.urls import api

#: The schema, the documentation and the root (a link to them) are routes of the API, not calls it documents.
NOT_CALLS = {"openapi-json", "openapi-view", "api-root"}


def routed_calls() -> dict[str, set[str]]:
    """Every route of the API as the schema writes a path (``/api/uploads/{upload_id}``), with the methods
    its operations answer (from the routers, by the route's name)."""
    methods: dict[str, set[str]] = {}
    for _prefix, router in api._routers:
        for view in router.path_operations.values():
            methods.setdefault(view.url_name, set()).update(m.lower() for op in view.operations for m in op.methods)
    patterns, _app, _namespace = api.urls
    return {
        "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern)): methods[pattern.name]
        for pattern in patterns
        if pattern.name not in NOT_CALLS
    }


def test_the_schema_loads_and_documents_every_routed_call_with_its_methods(client, db):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Masterpoint office API"
    calls = routed_calls()
    assert len(calls) == 10  # 5 public reads (the ranking list of issue 18 among them), 5 upload calls
    assert {path: set(schema["paths"][path]) for path in calls if path in schema["paths"]} == calls
    assert set(schema["paths"]) == set(calls)


def test_each_operation_says_what_it_answers_and_every_reference_resolves(client, db):
    schema = client.get("/api/openapi.json").json()
    text = str(schema)
    for ref in set(re.findall(r"#/components/schemas/(\w+)", text)):
        assert ref in schema["components"]["schemas"], ref
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert operation.get("description") or operation.get("summary"), (path, method)
            assert operation["responses"], (path, method)
            if path.startswith("/api/uploads"):
                assert operation["security"] == [{"TokenAuth": []}], (path, method)
                if method == "post":
                    names = {parameter["name"] for parameter in operation["parameters"]}
                    assert "Idempotency-Key" in names, path
                    assert "409" in operation["responses"], path
    assert schema["components"]["securitySchemes"]["TokenAuth"] == {"type": "http", "scheme": "bearer"}


def test_the_documentation_is_served_from_the_site_without_a_cdn(client, db):
    response = client.get(reverse("api:openapi-view"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in body and "cdn" not in body.lower()
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


def test_an_address_under_api_that_names_no_call_is_a_json_404(client, db):
    response = client.get("/api/no-such-call")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
