from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("office", "0001_initial"),
        ("clubs", "0002_officer_moved_to_office"),
    ]

    operations = [
        migrations.AlterModelTable(name="officer", table=None),
    ]
