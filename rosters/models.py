"""Game data (what things cost, editable by the game master) and rosters
(what a player bought). Validation and pricing live in ``rosters.domain``
(pure Python); writes in ``rosters.services``; reads in ``rosters.selectors``.

Every number the seed does not give is shipped as a PLACEHOLDER row
(``is_placeholder=True``, catalog gaps G-1, G-5, G-6, G-15, G-16) and shown as
such in the admin and the API until the game master edits it.
"""
from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.models import Rank

PLACEHOLDER_HELP = _("Default not taken from the seed rules (catalog gap); check and edit it.")


class Category(models.TextChoices):
    """What an infantry class counts as for the per-squad maxima (V-SQUAD-7…16)."""

    RIFLEMAN = "rifleman", _("rifleman")
    SNIPER = "sniper", _("sniper")
    MG = "mg", _("machine gunner")
    SCOUT = "scout", _("scout")
    SAPPER = "sapper", _("sapper")
    MEDIC = "medic", _("medic")
    AT_GRENADIER = "at_grenadier", _("AT grenadier")
    FLAMETHROWER = "flamethrower", _("flamethrower")
    RADIO = "radio", _("radio operator")
    PERSONNEL = "personnel", _("personnel")
    OFFICER = "officer", _("officer")


class GameDataVersion(models.Model):
    """One row per change of game data; a roster records the version it was
    priced with, so a later change never silently rewrites its history."""

    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("game data version")
        verbose_name_plural = _("game data versions")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"v{self.pk}"


class RosterRules(models.Model):
    """Budgets, limits and the catalog's readings, as one editable row.

    Seed numbers (V-PP-1…6, V-SQUAD-7…16, V-TG-5/6, V-MOTOR-5/7, V-VDMG-9) are not
    placeholders; the readings of conflicts (V-RANK-7/V-PLT-1, V-RANK-8/V-PLT-2)
    are the catalog's and may be changed by the game master.
    """

    budget_corporal = models.PositiveIntegerField(_("budget: corporal (V-PP-1)"), default=8)
    budget_sergeant = models.PositiveIntegerField(_("budget: sergeant (V-PP-2)"), default=16)
    budget_lieutenant = models.PositiveIntegerField(_("budget: lieutenant (V-PP-3)"), default=45)
    budget_captain = models.PositiveIntegerField(_("budget: captain (V-PP-4)"), default=80)
    attacker_bonus = models.PositiveIntegerField(_("attacking side bonus (V-PP-6)"), default=40)
    tactical_group_budget = models.PositiveIntegerField(_("standard tactical group cost (V-TG-6)"), default=8)
    fire_team_min = models.PositiveIntegerField(_("fire team: min men (V-SQUAD-1)"), default=5)
    fire_team_max = models.PositiveIntegerField(_("fire team: max men (V-SQUAD-1, V-RANK-5)"), default=7)
    squad_max_men = models.PositiveIntegerField(_("squad: max men (V-SQUAD-11, V-RANK-6)"), default=14)
    squad_max_sniper = models.PositiveIntegerField(_("squad: max snipers (V-SQUAD-7)"), default=1)
    squad_max_mg = models.PositiveIntegerField(_("squad: max machine guns (V-SQUAD-8)"), default=2)
    squad_max_scout = models.PositiveIntegerField(_("squad: max scouts (V-SQUAD-9)"), default=2)
    squad_max_officer = models.PositiveIntegerField(_("squad: max officers (V-SQUAD-10)"), default=2)
    squad_max_sapper = models.PositiveIntegerField(_("squad: max sappers (V-SQUAD-12)"), default=2)
    squad_max_medic = models.PositiveIntegerField(_("squad: max medics (V-SQUAD-13)"), default=2)
    squad_max_at_grenadier = models.PositiveIntegerField(_("squad: max grenade launchers (V-SQUAD-14)"), default=2)
    squad_max_flamethrower = models.PositiveIntegerField(_("squad: max flamethrowers (V-SQUAD-15)"), default=1)
    squad_max_radio = models.PositiveIntegerField(_("squad: max radio operators (V-SQUAD-16)"), default=1)
    platoon_min_squads = models.PositiveIntegerField(_("platoon: min squads (V-PLT-1 reading)"), default=2)
    platoon_max_squads = models.PositiveIntegerField(_("platoon: max squads (V-RANK-7 reading)"), default=3)
    platoon_max_groups = models.PositiveIntegerField(_("platoon: max tactical groups (V-PLT-1 reading)"), default=1)
    company_min_platoons = models.PositiveIntegerField(_("company: min platoons (V-PLT-2 reading)"), default=2)
    company_max_platoons = models.PositiveIntegerField(_("company: max platoons (V-RANK-8 reading)"), default=3)
    company_max_groups = models.PositiveIntegerField(_("company: max tactical groups (V-RANK-8 reading)"), default=2)
    company_max_hq_squads = models.PositiveIntegerField(
        _("company: max HQ squads, replacing the groups (V-RANK-8 reading)"), default=1)
    tg_min_of_kind = models.PositiveIntegerField(_("tactical group: min fighters of its class (V-TG-2)"), default=2)
    tg_max_men = models.PositiveIntegerField(_("tactical group: max men (V-TG-5)"), default=7)
    motor_max_vehicles = models.PositiveIntegerField(_("motorised unit: max armoured vehicles (V-MOTOR-5)"), default=3)
    motor_max_officers = models.PositiveIntegerField(_("motorised unit: max command staff (V-MOTOR-7)"), default=3)
    motor_crew_personnel = models.PositiveIntegerField(_("motorised unit: personnel per vehicle (V-MOTOR-6)"),
                                                       default=2)
    motor_max_sergeants = models.PositiveIntegerField(
        _("motorised unit: max sergeants among the staff (V-MOTOR-7 reading)"), default=1)
    squad_vehicle_max_class = models.PositiveIntegerField(
        _("squad vehicle or gun: max class (V-SQUAD-5 reading)"), default=1)
    smoke_min_gun_class = models.PositiveIntegerField(_("smoke: guns from class (V-SMOKE-1)"), default=3)
    tg_max_includes_corporal = models.BooleanField(
        _("tactical group limit includes its corporal (V-TG-5 reading)"), default=True)
    air_support_cost = models.PositiveIntegerField(_("air-support card cost (G-8 placeholder)"), default=8)
    air_support_max = models.PositiveIntegerField(_("air-support cards per roster (G-8 placeholder)"), default=1)
    hq_squad_rules = models.CharField(
        _("HQ squad composition (G-19 placeholder)"), max_length=16, default="squad",
        choices=[("squad", _("the infantry squad rules (V-SQUAD)")), ("free", _("not checked"))])
    reinforcement_group_rules = models.CharField(
        _("reinforcement group composition (G-19 placeholder)"), max_length=16, default="tactical_group",
        choices=[("tactical_group", _("a separate tactical group (V-TG)")),
                 ("squad", _("the infantry squad rules (V-SQUAD)"))])
    upgrades_per_unit = models.PositiveIntegerField(_("upgrades per squad or group (V-UPG-4)"), default=1)
    group_upgrade_limit = models.BooleanField(
        _("the one-upgrade limit also binds tactical groups (V-UPG-4 reading)"), default=True)
    side_skirts_cost = models.PositiveIntegerField(_("side skirts cost (V-VDMG-9)"), default=3)
    fow_points_limit = models.PositiveIntegerField(_("FoW roster: points limit (G-F1 placeholder)"), default=100)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("roster rules")
        verbose_name_plural = _("roster rules")

    def __str__(self) -> str:
        return str(_("Roster rules"))


class EngineClass(models.TextChoices):
    """The battle engine's infantry classes (``battles.engine.rules_data.INFANTRY_CLASSES``)."""

    RIFLEMAN = "rifleman", _("rifleman")
    SNIPER = "sniper", _("sniper")
    LMG_GUNNER = "lmg_gunner", _("light MG gunner")
    HMG_GUNNER = "hmg_gunner", _("heavy MG gunner")
    HMG_ASSISTANT = "hmg_assistant", _("heavy MG assistant")
    SCOUT = "scout", _("scout")
    SAPPER = "sapper", _("sapper")
    MEDIC = "medic", _("medic")
    AT_GRENADIER = "at_grenadier", _("AT grenadier")
    AT_RIFLEMAN = "at_rifleman", _("AT rifleman")
    FLAMETHROWER = "flamethrower", _("flamethrower")
    RADIO_OPERATOR = "radio_operator", _("radio operator")
    PERSONNEL = "personnel", _("personnel")
    OFFICER = "officer", _("officer")


class InfantryClass(models.Model):
    """A row of the infantry table (G-1: the seed's table is missing)."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    category = models.CharField(_("category"), max_length=16, choices=Category.choices)
    rank = models.CharField(_("officer rank"), max_length=16, choices=Rank.choices, blank=True)
    # What the battle engine knows this class as (its weapons and rules):
    # mustering maps each roster fighter to it; officers take ``rank`` too.
    engine_class = models.CharField(_("class in battle"), max_length=32, choices=EngineClass.choices,
                                    default=EngineClass.RIFLEMAN)
    cost = models.PositiveIntegerField(_("cost, PP"))
    observation_in = models.PositiveIntegerField(_("observation distance, in"), default=12)
    fire_dug_in = models.PositiveIntegerField(_("fire distance dug in, in"), null=True, blank=True)
    fire_march = models.PositiveIntegerField(_("fire distance on the march, in"), null=True, blank=True)
    fire_recon = models.PositiveIntegerField(_("fire distance in recon, in"), null=True, blank=True)
    fire_assault = models.PositiveIntegerField(_("fire distance in assault, in"), null=True, blank=True)
    attack = models.IntegerField(_("attack"), default=0)
    defence = models.IntegerField(_("defence"), default=0)
    is_placeholder = models.BooleanField(_("placeholder"), default=True, help_text=PLACEHOLDER_HELP)
    position = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("infantry class")
        verbose_name_plural = _("infantry classes")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name_ru


class ArmourClass(models.Model):
    """Armour class cost (G-5) and the suggested mm mapping (G-6, V-VEH-4)."""

    number = models.PositiveIntegerField(_("class"), unique=True, validators=[MinValueValidator(1)])
    cost = models.PositiveIntegerField(_("cost, PP"))
    min_front_mm = models.PositiveIntegerField(_("from upper front hull armour, mm"), default=0)
    is_placeholder = models.BooleanField(_("placeholder"), default=True, help_text=PLACEHOLDER_HELP)

    class Meta:
        verbose_name = _("armour class")
        verbose_name_plural = _("armour classes")
        ordering = ["number"]

    def __str__(self) -> str:
        return str(self.number)


class GunClass(models.Model):
    """Gun class cost (G-5) and the suggested calibre mapping (G-6)."""

    number = models.PositiveIntegerField(_("class"), unique=True, validators=[MinValueValidator(1)])
    cost = models.PositiveIntegerField(_("cost, PP"))
    max_calibre_mm = models.PositiveIntegerField(_("up to calibre, mm"), null=True, blank=True)
    is_placeholder = models.BooleanField(_("placeholder"), default=True, help_text=PLACEHOLDER_HELP)

    class Meta:
        verbose_name = _("gun class")
        verbose_name_plural = _("gun classes")
        ordering = ["number"]

    def __str__(self) -> str:
        return str(self.number)


class OptionAppliesTo(models.TextChoices):
    ANY = "any", _("any vehicle or pillbox")
    VEHICLE = "vehicle", _("vehicles only (not pillboxes)")
    AA_GUN = "aa_gun", _("AA guns (not autocannons)")


class VehicleOption(models.Model):
    """Something bought for a vehicle: specialisations (V-VEH-6/7), the pillbox
    spotter (V-BUNK-7), the AT fire of AA guns (V-AA-7). Costs are G-16."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    applies_to = models.CharField(_("applies to"), max_length=16, choices=OptionAppliesTo.choices,
                                  default=OptionAppliesTo.VEHICLE)
    cost = models.PositiveIntegerField(_("cost, PP"))
    is_placeholder = models.BooleanField(_("placeholder"), default=True, help_text=PLACEHOLDER_HELP)

    class Meta:
        verbose_name = _("vehicle option")
        verbose_name_plural = _("vehicle options")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name_ru


class Upgrade(models.Model):
    """An upgrade card (улучшение, V-UPG-1). G-15: shipped empty."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    description = models.TextField(_("effect"), blank=True)
    cost = models.PositiveIntegerField(_("cost, PP"))
    is_placeholder = models.BooleanField(_("placeholder"), default=True, help_text=PLACEHOLDER_HELP)

    class Meta:
        verbose_name = _("upgrade")
        verbose_name_plural = _("upgrades")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name_ru


# --- Flames of War game data -----------------------------------------------------
class FowTeamKind(models.TextChoices):
    """The FoW engine's team kinds (``battles.engine.fow.state.TEAM_KINDS``)."""

    INFANTRY = "infantry", _("infantry team")
    GUN = "gun", _("gun team")
    TANK = "tank", _("tank team")
    VEHICLE = "vehicle", _("unarmoured or light vehicle")
    TRAIN = "train", _("armoured train wagon")


class FowGunSize(models.TextChoices):
    NONE = "", _("not a gun")
    MAN_PACKED = "man_packed", _("man-packed gun")
    LIGHT = "light", _("light gun")
    MEDIUM = "medium", _("medium gun")
    HEAVY = "heavy", _("heavy gun")
    IMMOBILE = "immobile", _("immobile gun")


class FowSpeciality(models.TextChoices):
    """F-SPEC-1: the specialised troop types. Only reconnaissance and armoured
    trains have rules in the seeds; the others are G-F2 (not implemented)."""

    NONE = "", _("none")
    RECON = "recon", _("reconnaissance")
    MOTORCYCLE_RECON = "motorcycle_recon", _("motorcycle reconnaissance")
    CAVALRY = "cavalry", _("cavalry")
    FLAMETHROWER = "flamethrower", _("man-packed flame-thrower")
    FLAME_TANK = "flame_tank", _("flame-thrower tank")
    TANK_ESCORT = "tank_escort", _("Tank Escort infantry")
    ARMOURED_TRAIN = "armoured_train", _("armoured train")


class FowPlatoonKind(models.TextChoices):
    """The FoW engine's platoon kinds (``battles.engine.fow.state.PLATOON_KINDS``)."""

    INFANTRY = "infantry", _("infantry platoon")
    GUN = "gun", _("gun platoon")
    TANK = "tank", _("tank platoon")
    RECON = "recon", _("reconnaissance platoon")
    ARMOURED_TRAIN = "armoured_train", _("armoured train")
    INDEPENDENT = "independent", _("independent teams")
    OTHER = "other", _("other platoon")


class FowTeamType(models.Model):
    """A FoW team type a roster buys (rifle team, tank, locomotive...). The
    seeds give no points table nor ratings (G-F1, G-F3): every row is a
    PLACEHOLDER until the game master edits it."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    kind = models.CharField(_("team kind"), max_length=16, choices=FowTeamKind.choices)
    speciality = models.CharField(_("specialised troops (F-SPEC-1)"), max_length=20, choices=FowSpeciality.choices,
                                  blank=True)
    gun_size = models.CharField(_("gun size"), max_length=16, choices=FowGunSize.choices, blank=True)
    armoured = models.BooleanField(_("armoured"), default=False)
    locomotive = models.BooleanField(_("armoured train's Locomotive (G-F3)"), default=False)
    anti_aircraft = models.BooleanField(_("anti-aircraft"), default=False)
    movement_in = models.FloatField(_("movement, in"), null=True, blank=True)
    movement_cm = models.FloatField(_("movement, cm"), null=True, blank=True)
    cost = models.PositiveIntegerField(_("points"))
    is_placeholder = models.BooleanField(_("placeholder"), default=True, help_text=PLACEHOLDER_HELP)
    position = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("FoW team type")
        verbose_name_plural = _("FoW team types")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name_ru


# --- rosters ------------------------------------------------------------------
class Side(models.TextChoices):
    ATTACKER = "attacker", _("attacker")
    DEFENDER = "defender", _("defender")


class Status(models.TextChoices):
    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted")
    LOCKED = "locked", _("locked")


class UnitKind(models.TextChoices):
    COMPANY = "company", _("company")
    PLATOON = "platoon", _("platoon")
    SQUAD = "squad", _("infantry squad")
    HQ_SQUAD = "hq_squad", _("HQ squad")
    TACTICAL_GROUP = "tactical_group", _("tactical group")
    MOTORISED = "motorised", _("motorised unit")
    FOW_PLATOON = "fow_platoon", _("FoW platoon")


class GroupKind(models.TextChoices):
    """V-TG-1."""

    AT = "at", _("anti-tank")
    RECON = "recon", _("reconnaissance")
    MEDICAL = "medical", _("medical")
    SNIPER = "sniper", _("sniper")
    MG = "mg", _("machine-gun")
    FLAME = "flame", _("flamethrower")


class VehicleKind(models.TextChoices):
    """V-VEH-1: cars, armoured vehicles (tanks, APCs) and artillery; pillboxes (V-BUNK-7)."""

    CAR = "car", _("car")
    TANK = "tank", _("tank")
    APC = "apc", _("armoured personnel carrier")
    ARTILLERY = "artillery", _("artillery piece")
    PILLBOX = "pillbox", _("pillbox")


class GunType(models.TextChoices):
    NONE = "", _("none / standard")
    AT = "at", _("anti-tank gun")
    AA = "aa", _("AA gun")
    AA_AUTOCANNON = "aa_autocannon", _("AA autocannon")
    HOWITZER = "howitzer", _("howitzer")
    MORTAR = "mortar", _("mortar")
    ROCKET_MORTAR = "rocket_mortar", _("rocket mortar")


class Roster(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rosters",
                              verbose_name=_("player"))
    character = models.ForeignKey("campaign.Character", on_delete=models.PROTECT, related_name="rosters",
                                  verbose_name=_("character"))
    name = models.CharField(_("name"), max_length=200)
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="rosters", verbose_name=_("campaign"))
    # The campaign issue will own side membership; V-PP-6 reads it from here for now.
    side = models.CharField(_("side"), max_length=16, choices=Side.choices, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT)
    priced_version = models.ForeignKey(GameDataVersion, on_delete=models.PROTECT, null=True, blank=True,
                                       related_name="+", verbose_name=_("priced with game data"))
    priced_total = models.PositiveIntegerField(_("priced total, PP"), default=0)
    air_support_cards = models.PositiveIntegerField(_("air-support cards (V-FORM-2, G-8)"), default=0)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    # The owner's read-only share link: an unguessable token while sharing is on,
    # empty when off (turning it on again makes a new token: the old link dies).
    share_token = models.CharField(_("share link token"), max_length=64, blank=True, default="", db_index=True,
                                   editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("roster")
        verbose_name_plural = _("rosters")
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Unit(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="units", verbose_name=_("roster"))
    parent = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True, related_name="children",
                               verbose_name=_("part of"))
    kind = models.CharField(_("kind"), max_length=16, choices=UnitKind.choices)
    group_kind = models.CharField(_("group type"), max_length=16, choices=GroupKind.choices, blank=True)
    name = models.CharField(_("name"), max_length=200)
    upgrades = models.ManyToManyField(Upgrade, blank=True, related_name="+", verbose_name=_("upgrades"))
    # FoW platoons only (kind ``fow_platoon``): what the platoon is (F-SPEC-1, F-RECON-1, G-F3).
    fow_kind = models.CharField(_("FoW platoon type"), max_length=16, choices=FowPlatoonKind.choices, blank=True)
    position = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("unit")
        verbose_name_plural = _("units")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name


class Vehicle(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="vehicles", verbose_name=_("roster"))
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, null=True, blank=True, related_name="vehicles",
                             verbose_name=_("unit"))
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=16, choices=VehicleKind.choices)
    gun_type = models.CharField(_("gun type"), max_length=16, choices=GunType.choices, blank=True)
    armour_class = models.PositiveIntegerField(_("armour class"), default=1,
                                               validators=[MinValueValidator(1), MaxValueValidator(99)])
    gun_class = models.PositiveIntegerField(_("gun class"), null=True, blank=True,
                                            validators=[MinValueValidator(1), MaxValueValidator(99)])
    side_skirts = models.BooleanField(_("side skirts"), default=False)
    options = models.ManyToManyField(VehicleOption, blank=True, related_name="+", verbose_name=_("options"))
    position = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("vehicle")
        verbose_name_plural = _("vehicles")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The name a person reads: an unnamed vehicle is stored under its kind's key (``tank``, which the
        muster reads as "unnamed" and numbers, «Танк №1»), and reads as the kind in words."""
        return str(self.get_kind_display()).capitalize() if self.name == self.kind else self.name


class Fighter(models.Model):
    """``count`` fighters of one class in one place (a unit's fire team, a
    vehicle's crew, or standing alone)."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="fighters", verbose_name=_("roster"))
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, null=True, blank=True, related_name="fighters",
                             verbose_name=_("unit"))
    vehicle = models.ForeignKey(Vehicle, on_delete=models.CASCADE, null=True, blank=True, related_name="crew",
                                verbose_name=_("crew of"))
    infantry_class = models.ForeignKey(InfantryClass, on_delete=models.PROTECT, related_name="+",
                                       verbose_name=_("class"))
    count = models.PositiveIntegerField(_("count"), default=1, validators=[MinValueValidator(1)])
    fire_team = models.PositiveIntegerField(_("fire team"), null=True, blank=True)
    position = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("fighters")
        verbose_name_plural = _("fighters")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.count} × {self.infantry_class_id}"


class FowTeam(models.Model):
    """``count`` teams of one FoW type in one FoW platoon (a FoW roster row)."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="fow_teams", verbose_name=_("roster"))
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="fow_teams", verbose_name=_("platoon"))
    team_type = models.ForeignKey(FowTeamType, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("team type"))
    count = models.PositiveIntegerField(_("count"), default=1, validators=[MinValueValidator(1)])
    position = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("FoW teams")
        verbose_name_plural = _("FoW teams")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.count} × {self.team_type_id}"
