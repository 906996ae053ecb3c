from django.contrib import admin

from .models import Campaign, Character, Nationality


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "created_at")
    list_filter = ("ruleset",)
    search_fields = ("name",)


@admin.register(Nationality)
class NationalityAdmin(admin.ModelAdmin):
    list_display = ("code", "name_ru", "name_en", "corporal_ru", "sergeant_ru", "lieutenant_ru", "captain_ru",
                    "is_placeholder")
    list_filter = ("is_placeholder",)


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "nationality", "rank")
    list_filter = ("nationality", "rank")
    search_fields = ("name", "owner__username")
    list_select_related = ("owner", "nationality")
