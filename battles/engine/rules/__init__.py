"""Rule modules. Importing this package registers every event type."""
from . import core, engineering, fire, infantry, movement, setup, vehicles  # noqa: F401
