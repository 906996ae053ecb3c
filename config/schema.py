"""The OpenAPI document as generated clients read it (issue 29): one ``Error``
component, and every operation documenting every error status it can answer.

Named in ``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``; views describe their
successes (``extend_schema``) and may describe an error status in words, and
this class adds the rest, so a client generated from docs/openapi.yaml returns
a typed ``Error`` instead of raising on an undocumented status. Which statuses
an operation can answer follows from what every API request goes through:

* 400 (a malformed query, body or Host) and 503 (the database or the broker
  unreachable, ``config.errors.outage``): every operation.
* 401 and 403: every operation that authenticates (a token that is not valid is
  a 401 even on a read open to anonymous readers; a CSRF refusal or a reader the
  object is hidden from is a 403). The token endpoint authenticates nobody.
* 404: a path naming an object, or a body naming one, and 409 (a stale or
  conflicting write) and 422 (a rule refused it): every write, of an operation
  that authenticates (the token endpoint names nothing and changes nothing shared).
* 413 and 415: a body that is too large or not JSON, on an operation that takes
  one (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]`` parses JSON only).
* 429: where a view documents it (the token endpoint's lock-out).

405 answers a method the path does not document, so no documented operation
answers it (its body has the same shape all the same).
"""
from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from rest_framework import permissions, serializers

SAFE = frozenset(permissions.SAFE_METHODS)

DESCRIPTIONS: dict[int, str] = {
    400: "The request is malformed: `field` names what to fix (`fields` has every field's errors).",
    401: "The token is missing or not valid.",
    403: "Not allowed to you (decided before the body is read).",
    404: "No such object, or one hidden from you.",
    409: "Conflicts with the current state (a stale `expected_seq` answers `current_seq`).",
    413: "The body is too large.",
    415: "The body is not JSON (`Content-Type: application/json`).",
    422: "The rules refuse it: `rule_id` names the rule.",
    429: "Too many requests: wait `retry_after` seconds (header Retry-After).",
    503: "The database or the queue is unreachable: retry after the Retry-After header's seconds.",
}


class ErrorBody(serializers.Serializer):
    code = serializers.CharField(help_text="A stable code (`invalid`, `not_found`, `rule_violation`, ...).")
    field = serializers.CharField(allow_null=True, help_text="The field at fault (a dotted path), if any.")
    rule_id = serializers.CharField(allow_null=True, help_text="The rule refusing it (e.g. `V-MOVE-3`), if any.")
    message = serializers.CharField(help_text="In the request's language (Accept-Language: ru or en).")
    message_ru = serializers.CharField()
    message_en = serializers.CharField()
    fields = serializers.JSONField(required=False, help_text="On 400 `invalid`: every field's errors.")
    current_seq = serializers.IntegerField(required=False, help_text="On 409 `stale`: the log's head now.")
    index = serializers.IntegerField(required=False, help_text="The refused event's index in the batch.")
    recorded_by = serializers.CharField(required=False, help_text="On 403: who records this event type.")
    retry_after = serializers.IntegerField(required=False, help_text="On 429: seconds to wait.")
    problems = serializers.ListField(child=serializers.DictField(), required=False,
                                     help_text="On 400 `import_invalid`: every problem found in the file.")
    violations = serializers.ListField(child=serializers.DictField(), required=False,
                                       help_text="On 422 `roster_invalid`: every violation.")


class Error(serializers.Serializer):
    """Every error answer of the API (``config.errors``)."""

    error = ErrorBody()


class AutoSchema(openapi.AutoSchema):
    def get_auth(self) -> list[dict[str, Any]]:
        """drf-spectacular marks a read anonymous only under exactly ``AllowAny`` or
        ``IsAuthenticatedOrReadOnly``; a subclass of either grants it too."""
        auths = super().get_auth()
        if {} not in auths and self.method in SAFE and all(
                isinstance(p, (permissions.AllowAny, permissions.IsAuthenticatedOrReadOnly))
                for p in self.view.get_permissions()):
            auths.append({})
        return auths

    def get_operation(self, path: str, path_regex: str, path_prefix: str, method: str,
                      registry: Any) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        error = self.resolve_serializer(Error, "response").ref
        for code in sorted(self.error_statuses(operation) | {int(s) for s in responses if s.isdigit()}):
            if code < 400:
                continue
            answer = responses.setdefault(str(code), {})
            answer["content"] = {"application/json": {"schema": error}}
            answer["description"] = answer.get("description") or DESCRIPTIONS.get(code, "")
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def error_statuses(self, operation: dict[str, Any]) -> set[int]:
        found = {400, 503}
        body = "requestBody" in operation
        if body:
            found |= {413, 415}
        if not any(requirement for requirement in operation.get("security", ())):
            return found
        found |= {401, 403}
        if body or any(p.get("in") == "path" for p in operation.get("parameters", ())):
            found.add(404)
        if self.method not in SAFE:
            found |= {409, 422}
        return found
