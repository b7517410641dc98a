"""The bench's table leaves the product (issue 27): ``BenchWrite`` lives in the bench's own
app (benchapp/, migrated only where ``MAYI_BENCH_ENDPOINTS`` installs it). Its rows were the
bench's throwaway writes: nothing is copied."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0006_delete_roundresult")]

    operations = [migrations.DeleteModel(name="BenchWrite")]
