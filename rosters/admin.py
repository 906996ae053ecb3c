"""Admin for the game master: game data with placeholder markers, and rosters
with their parts, filters and lock/unlock actions (which call the services)."""
from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from config.errors import ApplicationError

from . import selectors, services
from .models import (
    ArmourClass,
    Fighter,
    FowTeam,
    FowTeamType,
    GameDataVersion,
    GunClass,
    InfantryClass,
    Roster,
    RosterRules,
    Unit,
    Upgrade,
    Vehicle,
    VehicleOption,
)


@admin.display(description=_("placeholder"), boolean=False, ordering="is_placeholder")
def placeholder_marker(obj):
    if obj.is_placeholder:
        return format_html('<strong style="color:#b45309">⚠ {}</strong>', _("PLACEHOLDER"))
    return "—"


class GameDataAdmin(admin.ModelAdmin):
    """Saving game data records a new game-data version; editing a placeholder
    row clears its marker unless the master keeps it ticked."""

    list_filter = ("is_placeholder",)

    def save_model(self, request, obj, form, change):
        services.game_data_row_save(row=obj, changed=list(form.changed_data))

    def delete_model(self, request, obj):
        services.game_data_row_delete(row=obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            services.game_data_row_delete(row=obj)


@admin.register(InfantryClass)
class InfantryClassAdmin(GameDataAdmin):
    """The infantry table (G-1, G-3): the roster builder prices it, and the
    battle engine reads its numbers (``battles.gamedata``) for every new battle."""

    list_display = ("code", "name_ru", "name_en", "category", "rank", "engine_class", "cost", "observation_in",
                    "attack", "defence", placeholder_marker)
    list_filter = ("category", "engine_class", "is_placeholder")
    fieldsets = (
        (None, {"fields": ("code", "name_ru", "name_en", "category", "rank", "cost", "is_placeholder", "position")}),
        (_("In battle"), {
            "description": _("The battle engine uses these numbers: the class in battle (officers also by their "
                             "rank), the observation distance, attack, defence and the fire distance of the "
                             "class's own weapon in each posture (leave a posture empty if the class cannot fire "
                             "in it). A battle keeps the values it was started under."),
            "fields": ("engine_class", "observation_in", ("fire_dug_in", "fire_march", "fire_recon", "fire_assault"),
                       "attack", "defence"),
        }),
    )

    def changelist_view(self, request, extra_context=None):
        note = _("The battle engine uses these numbers (observation, fire distances by posture, attack, defence) "
                 "for every new battle; a battle keeps the values it was started under.")
        return super().changelist_view(request, {**(extra_context or {}), "subtitle": note})


@admin.register(ArmourClass)
class ArmourClassAdmin(GameDataAdmin):
    list_display = ("number", "cost", "min_front_mm", placeholder_marker)


@admin.register(GunClass)
class GunClassAdmin(GameDataAdmin):
    list_display = ("number", "cost", "max_calibre_mm", placeholder_marker)


@admin.register(VehicleOption)
class VehicleOptionAdmin(GameDataAdmin):
    list_display = ("code", "name_ru", "name_en", "applies_to", "cost", placeholder_marker)


@admin.register(Upgrade)
class UpgradeAdmin(GameDataAdmin):
    list_display = ("code", "name_ru", "name_en", "cost", placeholder_marker)


@admin.register(FowTeamType)
class FowTeamTypeAdmin(GameDataAdmin):
    """Flames of War team types: points and ratings are placeholders (G-F1, G-F3) until edited."""

    list_display = ("code", "name_ru", "name_en", "kind", "speciality", "gun_size", "armoured", "locomotive",
                    "movement_in", "movement_cm", "cost", placeholder_marker)
    list_filter = ("kind", "speciality", "is_placeholder")


@admin.register(RosterRules)
class RosterRulesAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return not RosterRules.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        services.game_data_row_save(row=obj, changed=list(form.changed_data))


@admin.register(GameDataVersion)
class GameDataVersionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "created_at", "note")
    readonly_fields = ("created_at", "note")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class UnitInline(admin.TabularInline):
    model = Unit
    fields = ("name", "kind", "group_kind", "fow_kind", "parent", "upgrades", "position")
    extra = 0


class VehicleInline(admin.TabularInline):
    model = Vehicle
    fields = ("name", "kind", "gun_type", "armour_class", "gun_class", "side_skirts", "unit", "options")
    extra = 0


class FighterInline(admin.TabularInline):
    model = Fighter
    fields = ("infantry_class", "count", "unit", "vehicle", "fire_team")
    extra = 0


class FowTeamInline(admin.TabularInline):
    model = FowTeam
    fields = ("team_type", "count", "unit", "position")
    extra = 0


@admin.register(Roster)
class RosterAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "character", "campaign", "side", "status", "priced_total", "priced_version")
    list_filter = ("campaign", "side", "status")
    search_fields = ("name", "character__name", "owner__username")
    readonly_fields = ("priced_total", "priced_version", "submitted_at", "validation")
    inlines = [UnitInline, VehicleInline, FighterInline, FowTeamInline]
    actions = ["lock", "unlock"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("owner", "character", "campaign", "priced_version")

    def get_deleted_objects(self, objs, request):
        """Django's page of what keeps a roster from deletion lists the participants; name their battles."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        if protected:
            battles = [format_html("{} «{}»", _("Battle"), name) for name in selectors.roster_battle_names(rosters=objs)]
            protected = battles + list(protected)
        return deleted, counts, perms_needed, protected

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.roster_reprice_after_admin_edit(roster=form.instance)

    @admin.display(description=_("validation"))
    def validation(self, obj):
        if not obj.pk:
            return "—"
        report = selectors.roster_report(tree=selectors.roster_tree(roster_id=obj.pk))
        head = format_html("{} / {} PP. ", report.total, report.budget)
        if not report.violations:
            return format_html("{}{}", head, _("No violations."))
        return format_html("{}<ul>{}</ul>", head, format_html_join(
            "", "<li><code>{}</code> [{}] {}</li>",
            ((v.rule_id, v.severity, v.message_ru) for v in report.violations)))

    def _run(self, request, queryset, fn, done):
        for roster in queryset:
            try:
                fn(user=request.user, roster=roster)
            except ApplicationError as exc:
                self.message_user(request, f"{roster}: {exc.message_ru}", messages.ERROR)
        self.message_user(request, done, messages.SUCCESS)

    @admin.action(description=_("Lock selected rosters"))
    def lock(self, request, queryset):
        self._run(request, queryset, services.roster_lock, _("Locked."))

    @admin.action(description=_("Unlock selected rosters (back to draft)"))
    def unlock(self, request, queryset):
        self._run(request, queryset, services.roster_unlock, _("Unlocked."))
