"""The battle log's event store: the one way events enter a log (``append``),
with the input checks and the state cache it uses. docs/append.md says how."""
from .cache import STATE_CACHE
from .checks import EVENT_DATA_MAX_BYTES, EVENT_DATA_MAX_DEPTH, KEY_MAX_LENGTH, SERVICE_RNG, NewEvent
from .store import AppendResult, append, fold_log, stale

__all__ = ["EVENT_DATA_MAX_BYTES", "EVENT_DATA_MAX_DEPTH", "KEY_MAX_LENGTH", "SERVICE_RNG", "STATE_CACHE",
           "AppendResult", "NewEvent", "append", "fold_log", "stale"]
