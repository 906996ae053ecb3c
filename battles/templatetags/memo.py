"""``{% memo name=value … %}…{% endmemo %}``: a fragment rendered once per content.

The block is rendered in a context holding only the names it is given (as
``{% include … with … only %}`` does), so what it shows depends on those values,
the active language and the escaping alone, and its output is kept in this
process under exactly those: the next render of the same values reuses it.
A battle page's state region is such a fragment a unit (``battles/_state.html``):
a move changes one or two units, and the three readers of a battle see the
same unit alike, so most units of a live answer are rendered once.

Values that are not plain data (strings, numbers, booleans, ``None`` and
lists, tuples and dicts of them) could not be told apart by content: the block
is then rendered as usual and nothing is kept.
"""
from __future__ import annotations

import io
import itertools
import pickle
import threading
from typing import Any

from django import template
from django.template.base import token_kwargs
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# What a process keeps, counted as the bytes of the keys and the outputs (a unit's block is about 1 KB of
# output for 1 KB of key); past it the store starts afresh. A bound in fragments alone let a page of big
# blocks hold hundreds of megabytes.
BUDGET = 32 * 2**20
_kept: dict[tuple, str] = {}
_size = 0  # the bytes the kept keys and outputs count for
_lock = threading.Lock()
_blocks = itertools.count()  # each block's own number (an id() could be reused by a block parsed later)


class Unkeyable(Exception):
    """A value that is not plain data: its block is rendered, not kept."""


class _Plain(pickle.Pickler):
    """Pickles plain data only: its bytes are equal exactly when the data are
    (types included: a list is not a tuple, a ``SafeString`` is not a ``str``)."""

    def reducer_override(self, obj: Any) -> Any:  # (not called for exact str, int, float, list, tuple, dict…)
        if type(obj) is SafeString or obj is SafeString:
            return NotImplemented
        raise Unkeyable(type(obj).__name__)


def content_key(values: dict[str, Any]) -> bytes:
    """``values`` as bytes that are equal exactly when the data are; ``Unkeyable`` for anything but plain data."""
    out = io.BytesIO()
    _Plain(out, protocol=pickle.HIGHEST_PROTOCOL).dump(values)
    return out.getvalue()


class MemoNode(template.Node):
    def __init__(self, nodelist: template.NodeList, values: dict[str, Any]) -> None:
        self.nodelist = nodelist
        self.values = values
        self.block = next(_blocks)

    def render(self, context: template.Context) -> str:
        values = {name: v.resolve(context) for name, v in self.values.items()}
        try:
            key = (self.block, translation.get_language(), context.autoescape, context.use_l10n, content_key(values))
        except Unkeyable:
            key = None
        if key is not None:
            kept = _kept.get(key)
            if kept is not None:
                return kept
        out = mark_safe(self.nodelist.render(context.new(values)))  # only the names given: all the key holds
        if key is not None:
            _keep(key, out)
        return out


def _keep(key: tuple, out: str) -> None:
    global _size
    cost = len(key[-1]) + len(out.encode())
    if cost > BUDGET:  # bigger than the whole store: rendered every time
        return
    with _lock:
        if _size + cost > BUDGET:
            _kept.clear()
            _size = 0
        if key not in _kept:
            _kept[key] = out
            _size += cost


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    bits = token.split_contents()[1:]
    values = token_kwargs(bits, parser, support_legacy=False)
    if bits or not values:
        raise template.TemplateSyntaxError("{% memo %} takes name=value pairs only")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, values)
