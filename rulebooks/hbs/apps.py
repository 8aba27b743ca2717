from django.apps import AppConfig


class HbsRuleBookConfig(AppConfig):
    """Registers the rule book with the scheme registry once every model is loaded."""

    name = "rulebooks.hbs"
    label = "rulebook_hbs"

    def ready(self) -> None:
        from federation.schemes import register
        from rulebooks.hbs.scheme import HBS

        register(HBS)
