"""Admin for the game master: battles, their read-only log and state, a replay action."""
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from .models import Battle, BattleEvent, BattleProjection
from .tasks import replay_battle


class ReadOnlyEventInline(admin.TabularInline):
    model = BattleEvent
    fields = ("seq", "type", "data", "recorded_by", "recorded_at")
    readonly_fields = fields
    ordering = ("-seq",)
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("recorded_by")


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "number", "head_seq", "projection_seq")
    list_filter = ("campaign",)
    search_fields = ("name",)
    readonly_fields = ("head_seq",)
    inlines = [ReadOnlyEventInline]
    actions = ["replay"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("campaign", "projection")

    @admin.display(description=_("projection seq"))
    def projection_seq(self, obj):
        proj = getattr(obj, "projection", None)
        return proj.seq if proj else None

    @admin.action(description=_("Replay selected battles from the log"))
    def replay(self, request, queryset):
        for battle_id in queryset.values_list("id", flat=True):
            replay_battle.delay(battle_id, rebuild=True)
        self.message_user(request, _("Replay queued."), messages.SUCCESS)

    def has_delete_permission(self, request, obj=None):
        return obj is None or not obj.events.exists()


@admin.register(BattleEvent)
class BattleEventAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only. Corrections are appended as events."""

    list_display = ("battle", "seq", "position", "type", "recorded_by", "recorded_at")
    list_filter = ("type", "battle__campaign")
    search_fields = ("type", "key")
    list_select_related = ("battle", "recorded_by")
    readonly_fields = [f.name for f in BattleEvent._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(BattleProjection)
class BattleProjectionAdmin(admin.ModelAdmin):
    list_display = ("battle", "seq", "engine_version", "updated_at")
    readonly_fields = ("battle", "seq", "state", "engine_version", "updated_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
