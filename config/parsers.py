"""The API's JSON parser: DRF's, refusing what the database or the interpreter
cannot take (see ``config.inputs``). Named in ``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``."""
from __future__ import annotations

from typing import Any

from rest_framework import parsers


class JSONParser(parsers.JSONParser):
    """DRF's parser, plus: a body nested past the interpreter's recursion is a
    400 (``json.loads`` raises RecursionError near 1,000 levels), and so is a
    body nested past ``MAX_BODY_DEPTH`` or holding NUL, a lone surrogate or a
    number too large for a float (``1e400``, read as infinity)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        # A cycle, not at import time: inputs -> errors -> rest_framework.views, whose APIView reads
        # DEFAULT_PARSER_CLASSES, i.e. this module, while being defined.
        from . import inputs

        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise inputs.depth_error("body", inputs.MAX_BODY_DEPTH) from None
        inputs.refuse_bad(data, max_depth=inputs.MAX_BODY_DEPTH)
        return data
