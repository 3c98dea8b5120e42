"""One local SparkSession for the Spark tests (skipped without Java, unless SPARK_REQUIRED=1)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def spark():
    """``local[1]``, no UI, one shuffle partition; workers run this interpreter and checkout."""
    if shutil.which("java") is None:
        if os.environ.get("SPARK_REQUIRED") == "1":
            pytest.fail("SPARK_REQUIRED=1 but no java on PATH (apt-get install "
                        "openjdk-17-jre-headless)")
        pytest.skip("no Java on this machine: the Spark tests need it "
                    "(apt-get install openjdk-17-jre-headless)")
    pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed "
                                                    "(pip install '.[spark]')")
    del pyspark
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (SparkSession.builder.master("local[1]").appName("encoding-triage-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "1")
               .config("spark.executorEnv.PYTHONPATH", str(ROOT))
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
