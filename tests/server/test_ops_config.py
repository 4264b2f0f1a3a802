"""``tavla-engine serve`` configuration: flags over ``TAVLA_*`` variables over defaults, clear
errors (exit 2) for bad values, the CPU count behind ``--workers 0``, and the documented table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavla import cli
from tavla.server.process import config
from tavla.server.process import cpus
from tavla.server.process.config import DEFAULTS, OPTIONS, Config

DOCS = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"

# field: (value in the environment, what it parses to, value as a flag, what that parses to)
SAMPLES = {
    "host": ("127.0.0.1", "127.0.0.1", "::", "::"),
    "port": ("6000", 6000, "0", 0),
    "workers": ("3", 3, "1", 1),
    "reflection": ("false", False, "yes", True),
    "test_inputs": ("true", True, "no", False),
    "log_format": ("console", "console", "JSON", "json"),
    "metrics_port": ("0", 0, "9100", 9100),
    "max_message_bytes": ("1_048_576", 1048576, "2048", 2048),
    "max_request_bytes": ("4096", 4096, "131072", 131072),
    "max_concurrent_rpcs": ("8", 8, "128", 128),
    "max_analysis_rpcs": ("4", 4, "16", 16),
    "analysis_call_seconds": ("5", 5.0, "0", 0.0),
    "analysis_processes": ("0", 0, "2", 2),
    "worker_health_seconds": ("3", 3.0, "2.5", 2.5),
    "max_call_seconds": ("2.5", 2.5, "0", 0.0),
    "max_connection_age_seconds": ("0", 0.0, "60", 60.0),
    "drain_seconds": ("0", 0.0, "7.5", 7.5),
    "grace_seconds": ("3", 3.0, "30", 30.0),
    "cache_dir": ("/tmp/a", "/tmp/a", "/tmp/b", "/tmp/b"),
    "http_port": ("8080", 8080, "0", 0),
}


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    """No TAVLA_* or OTEL_* variables from the machine running the tests."""
    import os

    for name in list(os.environ):
        if name.startswith(("TAVLA_", "OTEL_")):
            monkeypatch.delenv(name)


def load(argv: list[str]) -> Config:
    args = cli.build_parser().parse_args(argv)
    return config.from_namespace(args)


def test_defaults_are_the_documented_safe_ones():
    assert load(["serve"]) == DEFAULTS
    assert (DEFAULTS.host, DEFAULTS.port, DEFAULTS.workers, DEFAULTS.reflection) == ("0.0.0.0", 50051, 0, True)
    assert (DEFAULTS.log_level, DEFAULTS.log_format, DEFAULTS.metrics_port) == ("info", None, 9090)
    assert (DEFAULTS.tls_cert, DEFAULTS.tls_key, DEFAULTS.tls_client_ca, DEFAULTS.otlp_endpoint) == (None,) * 4
    assert DEFAULTS.tls_client_allowed_names is None
    assert (DEFAULTS.max_message_bytes, DEFAULTS.max_concurrent_rpcs) == (4 * 1024 * 1024, 64)
    assert DEFAULTS.max_request_bytes == 64 * 1024
    assert (DEFAULTS.drain_seconds, DEFAULTS.grace_seconds) == (5.0, 10.0)


@pytest.mark.parametrize("field", sorted(SAMPLES))
def test_env_overrides_default_and_flag_overrides_env(monkeypatch, field):
    option = config.OPTIONS_BY_FIELD[field]
    env_text, env_value, flag_text, flag_value = SAMPLES[field]
    monkeypatch.setenv(option.env, env_text)
    assert getattr(load(["serve"]), field) == env_value
    assert getattr(load(["serve", option.flag, flag_text]), field) == flag_value


def test_every_option_has_a_sample_or_its_own_test():
    assert {o.field for o in OPTIONS} == set(SAMPLES) | {"log_level", "tls_cert", "tls_key", "tls_client_ca",
                                                         "state_mode", "state_keys_file",  # test_state_keys.py
                                                          "tls_client_allowed_names", "otlp_endpoint", "cors_origins", "web_dir"}


def test_cors_origins_and_web_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("TAVLA_HTTP_PORT", "8080")
    monkeypatch.setenv("TAVLA_CORS_ORIGINS", "https://a.example/, http://b.example:8000")
    assert load(["serve"]).cors_origins == "https://a.example,http://b.example:8000"
    assert load(["serve", "--cors-origins", "*"]).cors_origins == "*"
    with pytest.raises(SystemExit):
        load(["serve", "--cors-origins", "a.example"])  # an origin has a scheme
    with pytest.raises(config.ConfigError, match="index.html"):
        load(["serve", "--web-dir", str(tmp_path)])
    (tmp_path / "index.html").write_text("<!doctype html>")
    assert load(["serve", "--web-dir", str(tmp_path)]).web_dir == str(tmp_path)
    monkeypatch.delenv("TAVLA_HTTP_PORT")
    with pytest.raises(config.ConfigError, match="HTTP port"):
        load(["serve", "--web-dir", str(tmp_path)])


def test_reflection_switches(monkeypatch):
    assert load(["serve", "--no-reflection"]).reflection is False
    monkeypatch.setenv("TAVLA_REFLECTION", "off")
    assert load(["serve"]).reflection is False
    assert load(["serve", "--reflection"]).reflection is True


def test_log_level_serve_flag_then_top_level_flag_then_env(monkeypatch):
    monkeypatch.setenv("TAVLA_LOG_LEVEL", "WARNING")
    assert load(["serve"]).log_level == "warning"
    assert load(["--log-level", "error", "serve"]).log_level == "error"
    assert load(["--log-level", "error", "serve", "--log-level", "DEBUG"]).log_level == "debug"


def test_otlp_endpoint_from_ours_then_the_standard_variable(monkeypatch):
    pytest.importorskip("opentelemetry.sdk.trace")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317")
    assert load(["serve"]).otlp_endpoint == "http://collector:4317"
    monkeypatch.setenv("TAVLA_OTLP_ENDPOINT", "http://ours:4317")
    assert load(["serve"]).otlp_endpoint == "http://ours:4317"
    assert load(["serve", "--otlp-endpoint", "http://flag:4317"]).otlp_endpoint == "http://flag:4317"


def test_empty_variable_counts_as_unset(monkeypatch):
    monkeypatch.setenv("TAVLA_PORT", "")
    monkeypatch.setenv("TAVLA_TLS_CERT", "")
    assert load(["serve"]) == DEFAULTS


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["--port", "70000"], {}, "port 70000 is not 0-65535"),
        ([], {"TAVLA_PORT": "http"}, "TAVLA_PORT='http': 'http' is not a whole number"),
        ([], {"TAVLA_WORKERS": "-1"}, "TAVLA_WORKERS='-1': -1 is negative"),
        (["--max-concurrent-rpcs", "0"], {}, "0 is not positive"),
        ([], {"TAVLA_DRAIN_SECONDS": "soon"}, "TAVLA_DRAIN_SECONDS='soon': 'soon' is not a number of seconds"),
        (["--grace-seconds", "inf"], {}, "is not a non-negative number of seconds"),
        ([], {"TAVLA_REFLECTION": "maybe"}, "TAVLA_REFLECTION='maybe': 'maybe' is not true or false"),
        ([], {"TAVLA_LOG_FORMAT": "xml"}, "'xml' is not one of json, console"),
        ([], {"TAVLA_LOG_LEVEL": "loud"}, "TAVLA_LOG_LEVEL='loud': 'loud' is not one of debug"),
        (["--tls-cert", "/etc/hostname"], {}, "TLS needs both a certificate"),
        (["--tls-client-ca", "/etc/hostname"], {}, "mTLS (--tls-client-ca, TAVLA_TLS_CLIENT_CA) needs"),
        (["--tls-cert", "/nonexistent/tls.crt", "--tls-key", "/nonexistent/tls.key"], {},
         "--tls-cert '/nonexistent/tls.crt': no readable file there"),
        (["--tls-cert", "/etc/hostname", "--tls-key", "/etc/hostname"], {}, "cannot use TLS files"),
        (["--port", "9000", "--metrics-port", "9000"], {}, "the metrics port and the gRPC port are both 9000"),
    ],
)
def test_bad_values_exit_2_with_a_clear_message(monkeypatch, capsys, argv, env, message):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as info:
        cli.main(["serve", *argv])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_old_flag_spellings_still_work():
    settings = load(["serve", "--grace", "4", "--drain-delay", "1"])
    assert (settings.grace_seconds, settings.drain_seconds) == (4.0, 1.0)


def test_config_round_trips_as_json():
    settings = Config(port=0, tls_cert="/a", tls_key="/b", log_format="json", max_call_seconds=1.5)
    assert Config.from_json(settings.to_json()) == settings


# --- the documented table ---------------------------------------------------------------------


def test_docs_table_lists_exactly_the_options_with_their_defaults():
    text = DOCS.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `--")]
    documented = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        flag, env, default = (re.sub(r"`", "", c) for c in cells[:3])
        documented[env] = (flag.split(",")[0].strip(), default)
    assert set(documented) == {o.env for o in OPTIONS}
    for option in OPTIONS:
        flag, default = documented[option.env]
        assert flag == option.flag, option.env
        if option.default is not None and not isinstance(option.default, bool):
            number = f"{option.default:g}" if isinstance(option.default, float) else str(option.default)
            assert number in default, (option.env, default)


# --- CPUs for --workers 0 ---------------------------------------------------------------------


def fake_root(tmp_path: Path, files: dict[str, str], self_cgroup: str = "0::/\n") -> Path:
    (tmp_path / "proc" / "self").mkdir(parents=True)
    (tmp_path / "proc" / "self" / "cgroup").write_text(self_cgroup)
    for name, text in files.items():
        path = tmp_path / "sys" / "fs" / "cgroup" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def affinity() -> int:
    import os

    return len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("files", "quota"),
    [
        ({"cpu.max": "max 100000\n"}, None),
        ({"cpu.max": "150000 100000\n"}, 1.5),
        ({"cpu.max": "50000 100000\n"}, 0.5),
        ({"cpu,cpuacct/cpu.cfs_quota_us": "200000\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, 2.0),
        ({"cpu,cpuacct/cpu.cfs_quota_us": "-1\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, None),
        ({}, None),
    ],
)
def test_cgroup_quota(tmp_path, files, quota):
    assert cpus.cgroup_quota(fake_root(tmp_path, files)) == quota


def test_cgroup_v2_quota_of_this_process_cgroup(tmp_path):
    root = fake_root(tmp_path, {"kubepods/pod1/cpu.max": "300000 100000\n", "cpu.max": "max 100000\n"},
                     self_cgroup="0::/kubepods/pod1\n")
    assert cpus.cgroup_quota(root) == 3.0


def test_available_cpus_is_the_smaller_of_quota_rounded_up_and_affinity(tmp_path):
    assert cpus.available(fake_root(tmp_path / "a", {"cpu.max": "50000 100000\n"})) == 1
    assert cpus.available(fake_root(tmp_path / "b", {"cpu.max": "max 100000\n"})) == affinity()
    assert cpus.available(fake_root(tmp_path / "c", {"cpu.max": "6400000 100000\n"})) == affinity()
    assert cpus.available(fake_root(tmp_path / "d", {"cpu.max": "150000 100000\n"})) == min(2, affinity())
