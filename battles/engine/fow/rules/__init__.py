"""FoW rule areas. Importing this package registers every FoW event type.

``core`` (the log's skeleton) and ``actions`` (move, shoot, assault, go to
ground) come first: the area modules hook into them.
"""
from . import core, actions, double, digging  # noqa: F401, I001  (order matters: areas hook into actions)
from . import aircraft  # noqa: F401, E402  --- aircraft (F-AIR) ---
from . import air_saves  # noqa: F401, E402
# --- buildings (F-BLD) ---
from . import buildings  # noqa: F401, E402
# --- trains (F-TRAIN) ---
from . import trains  # noqa: F401, E402
from . import train_deployment  # noqa: F401, E402
# --- recon (F-RECON) ---
from . import recon  # noqa: F401, E402
# --- the Steps of a turn: after every area, so a rule barring an act by name is cited first ---
from . import steps  # noqa: F401, E402

# The measures of a move or a shot come after every rule that bars it (F-DBL-8): keep this last.
actions.register_measures()
