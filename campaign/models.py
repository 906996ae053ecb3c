"""Campaigns. The campaign issue grows this; the battle log needs only a campaign
to belong to and the ruleset it is played under."""
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Ruleset(models.TextChoices):
    V11_2 = "v11.2", _("Club rules v11.2")
    FOW = "fow", _("Flames of War")


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=200)
    ruleset = models.CharField(_("ruleset"), max_length=16, choices=Ruleset.choices, default=Ruleset.V11_2)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Rank(models.TextChoices):
    """The rank ladder (G-14 placeholder: corporal < sergeant < lieutenant < captain)."""

    CORPORAL = "corporal", _("corporal")
    SERGEANT = "sergeant", _("sergeant")
    LIEUTENANT = "lieutenant", _("lieutenant")
    CAPTAIN = "captain", _("captain")


RANK_ORDER = [Rank.CORPORAL, Rank.SERGEANT, Rank.LIEUTENANT, Rank.CAPTAIN]


class Nationality(models.Model):
    """A nation and its names for the four ranks (G-23: the seed gives only a
    few equivalents; the game master adds and edits the rest)."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    corporal_ru = models.CharField(_("corporal (Russian)"), max_length=60)
    corporal_en = models.CharField(_("corporal (English)"), max_length=60)
    sergeant_ru = models.CharField(_("sergeant (Russian)"), max_length=60)
    sergeant_en = models.CharField(_("sergeant (English)"), max_length=60)
    lieutenant_ru = models.CharField(_("lieutenant (Russian)"), max_length=60)
    lieutenant_en = models.CharField(_("lieutenant (English)"), max_length=60)
    captain_ru = models.CharField(_("captain (Russian)"), max_length=60)
    captain_en = models.CharField(_("captain (English)"), max_length=60)
    is_placeholder = models.BooleanField(
        _("placeholder"), default=False,
        help_text=_("Default data not taken from the seed rules; check and edit it."))

    class Meta:
        verbose_name = _("nationality")
        verbose_name_plural = _("nationalities")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name_ru

    def rank_name(self, rank: str, language: str = "ru") -> str:
        suffix = "ru" if language.startswith("ru") else "en"
        return getattr(self, f"{rank}_{suffix}")


class Character(models.Model):
    """A player's character (персонаж, V-RANK-1). The campaign issue grows this:
    rank becomes a projection of promotion events."""

    owner = models.ForeignKey("auth.User", on_delete=models.PROTECT, related_name="characters",
                              verbose_name=_("player"))
    name = models.CharField(_("name"), max_length=200)
    nationality = models.ForeignKey(Nationality, on_delete=models.PROTECT, related_name="characters",
                                    verbose_name=_("nationality"))
    rank = models.CharField(_("rank"), max_length=16, choices=Rank.choices, default=Rank.CORPORAL)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def rank_title(self, language: str = "ru") -> str:
        return self.nationality.rank_name(self.rank, language)
