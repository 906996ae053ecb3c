"""The battle log's event store: the one way events enter a log (``append``),
with the input checks and the state cache it uses. docs/append.md says how."""
from .cache import STATE_CACHE
from .checks import EVENT_DATA_MAX_BYTES, EVENT_DATA_MAX_DEPTH, NewEvent
from .store import AppendResult, append, fold_log

__all__ = ["EVENT_DATA_MAX_BYTES", "EVENT_DATA_MAX_DEPTH", "STATE_CACHE", "AppendResult", "NewEvent", "append",
           "fold_log"]
