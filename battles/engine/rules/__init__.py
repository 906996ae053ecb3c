"""Rule modules. Importing this package registers every event type."""
from . import core  # noqa: F401
