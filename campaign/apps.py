from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _
from PIL import Image

from .defaults import ensure_awards, ensure_card_design, ensure_nationalities
from .roles import ensure_roles


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        # After the last app's post_migrate, every app's permissions exist.
        post_migrate.connect(_ensure_defaults, sender=list(self.apps.get_app_configs())[-1])
        _limit_image_pixels()


def _limit_image_pixels() -> None:
    """Every Pillow open in the process (the admin's image field too) refuses a
    decompression bomb: Pillow warns above MAX_IMAGE_PIXELS and raises above
    twice that. The photo service refuses anything above the limit itself."""
    Image.MAX_IMAGE_PIXELS = int(settings.SHTAB.get("PHOTO_MAX_PIXELS", 40_000_000))


def _ensure_defaults(sender, using="default", **kwargs) -> None:
    """Roles and default game data survive a flush (tests) and appear for apps
    added later: post_migrate runs after every migrate and flush."""
    # post_migrate handler: models cannot load while apps.py does
    from django.contrib.auth.models import Group, Permission

    from .models import Award, AwardRule, CardColour, CardEmblem, Nationality

    ensure_roles(Group, Permission)
    ensure_nationalities(Nationality)
    ensure_awards(Award, AwardRule)
    ensure_card_design(CardColour, CardEmblem)
