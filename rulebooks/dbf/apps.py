from django.apps import AppConfig


class DbfRuleBookConfig(AppConfig):
    """Registers the rule book with the scheme registry once every model is loaded."""

    name = "rulebooks.dbf"
    label = "rulebook_dbf"

    def ready(self) -> None:
        from federation.schemes import register
        from rulebooks.dbf.scheme import DBF

        register(DBF)
