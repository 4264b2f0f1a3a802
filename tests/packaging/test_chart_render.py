"""The Helm chart helm/tavla-engine: `helm lint --strict`, `helm template` in every configuration
(defaults, each optional block, all of them at once), every rendered manifest validated offline
against the Kubernetes JSON schemas (kubernetes-validate, strict: unknown fields fail) for the
lowest and highest Kubernetes the chart supports, and what the chart must refuse.

`make test-chart` runs this file: it builds helm (deploy/install-helm.sh) and passes its path as
$HELM, and installs kubernetes-validate. Without $HELM (plain `pytest`) the module is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

HELM = os.environ.get("HELM")
if not HELM:
    pytest.skip("chart tests need $HELM: run `make test-chart`", allow_module_level=True)

# after the skip: only `make test-chart` installs kubernetes-validate (which brings jsonschema)
import jsonschema  # noqa: E402
import kubernetes_validate  # noqa: E402
import yaml  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "helm" / "tavla-engine"
DASHBOARD = CHART / "files" / "grafana-dashboard.json"
DOCS_DASHBOARD = ROOT / "docs" / "grafana-dashboard.json"
# Chart.yaml kubeVersion is >=1.27; kubernetes-validate 1.37.0 ships schemas up to 1.37.
KUBE_VERSIONS = ("1.27.0", "1.37.0")
NAMESPACE = "games"
RELEASE = "tavla-engine"
FULLNAME = RELEASE  # the release name contains the chart name, so it is the full name
CONTRACT_ENV = {  # the server's configuration contract: the chart sets each of these
    "TAVLA_HOST", "TAVLA_PORT", "TAVLA_WORKERS", "TAVLA_REFLECTION", "TAVLA_LOG_LEVEL",
    "TAVLA_LOG_FORMAT", "TAVLA_METRICS_PORT", "TAVLA_MAX_MESSAGE_BYTES", "TAVLA_MAX_CONCURRENT_RPCS",
    "TAVLA_DRAIN_SECONDS", "TAVLA_GRACE_SECONDS", "TAVLA_CACHE_DIR", "TAVLA_HTTP_PORT",
    "TAVLA_STATE_MODE", "TAVLA_STATE_KEYS", "TAVLA_DICE_KEY",
}

# The chart makes no keys: every render names an existing Secret unless a test says otherwise.
KEYS = {"stateKeys": {"existingSecret": f"{FULLNAME}-keys"}}

# Not real key material: the chart only base64-encodes the text into a Secret.
PEM_CERT = "-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n"
PEM_KEY = "-----BEGIN PRIVATE KEY-----\nMIIBtest\n-----END PRIVATE KEY-----\n"
PEM_CA = "-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n"

EVERYTHING_ON: dict[str, Any] = {
    "replicaCount": 3,
    "image": {"repository": "registry.example/tavla/tavla-engine", "tag": "0.1.0",
              "digest": "sha256:" + "ab" * 32, "pullSecrets": [{"name": "registry"}]},
    "config": {"workers": 2, "reflection": False, "logLevel": "debug", "logFormat": "console",
               "otlpEndpoint": "http://otel-collector.observability:4317"},
    "extraEnvs": [{"name": "TAVLA_MAX_CALL_SECONDS", "value": "5"}],
    "terminationGracePeriodSeconds": 30,
    "service": {"annotations": {"example.com/team": "games"}, "headless": {"enabled": True}},
    "serviceMonitor": {"enabled": True, "additionalLabels": {"release": "prometheus"}},
    "grafanaDashboard": {"enabled": True, "namespace": "monitoring"},
    "tls": {"enabled": True, "cert": PEM_CERT, "key": PEM_KEY, "clientCA": PEM_CA},
    "hpa": {"enabled": True, "minReplicas": 3, "maxReplicas": 12, "cpu": 60, "memory": "400Mi",
            "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300}}},
    "podDisruptionBudget": {"enabled": True, "maxUnavailable": "34%"},
    "networkPolicy": {"enabled": True,
                      "from": [{"namespaceSelector": {"matchLabels": {
                          "kubernetes.io/metadata.name": "games-frontend"}}}],
                      "metricsFrom": [{"namespaceSelector": {"matchLabels": {
                          "kubernetes.io/metadata.name": "monitoring"}}}]},
    "serviceAccount": {"create": True, "name": "tavla", "annotations": {"example.com/role": "none"}},
    "podAnnotations": {"example.com/scrape": "false"},
    "podLabels": {"team": "games"},
    "priorityClassName": "high",
    "nodeSelector": {"kubernetes.io/os": "linux"},
    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "games", "effect": "NoSchedule"}],
    "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "preference": {"matchExpressions": [
            {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]}]}}]}},
    "tests": {"enabled": True, "tlsServerName": "tavla-engine.games.svc"},
    "http": {"enabled": True, "corsOrigins": ["https://play.example.com", "http://localhost:5173"],
             "ingress": {"enabled": True, "className": "nginx", "annotations": {"example.com/owner": "games-web"},
                         "hosts": [{"host": "tavla.example.com", "paths": [{"path": "/", "pathType": "Prefix"}]}],
                         "tls": [{"hosts": ["tavla.example.com"], "secretName": "tavla-web-tls"}]},
             "httpRoute": {"enabled": True, "parentRefs": [{"name": "public", "namespace": "gateways",
                                                          "sectionName": "https"}],
                           "hostnames": ["tavla.example.com"]}},
    "validateJob": {"enabled": True, "claimName": "match-archive", "subPath": "galaxy/2024", "shards": 8,
                    "parallelism": 4, "jobs": 3, "rules": "money-jacoby", "local": True,
                    "failOnDisagreement": True, "ttlSecondsAfterFinished": 3600},
}
if not DASHBOARD.exists():  # docs/grafana-dashboard.json has not landed yet: see test_grafana_dashboard
    EVERYTHING_ON["grafanaDashboard"] = {"enabled": False}

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "single-replica": {"replicaCount": 1},
    "hpa": {"hpa": {"enabled": True}},
    "metrics-off": {"metrics": {"enabled": False}},
    "http-off": {"http": {"enabled": False}},
    "tls-existing-secret": {"tls": {"enabled": True, "secretName": "tavla-tls",
                                    "clientCAConfigMap": "games-ca"},
                            "stateKeys": {"existingSecret": "game-keys"}},
    "minimal": {"replicaCount": 1, "serviceAccount": {"create": False}, "tests": {"enabled": False},
                "probes": {"startup": {"enabled": False}}, "topologySpread": {"enabled": False},
                "podDisruptionBudget": {"enabled": False}},
    "custom-spread": {"topologySpreadConstraints": [
        {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "tavla-engine"}}}]},
    "validate-job": {"validateJob": {"enabled": True, "claimName": "match-archive"}},
    "everything-on": EVERYTHING_ON,
}

# prometheus-operator's ServiceMonitor (monitoring.coreos.com/v1) is a custom resource, so the
# Kubernetes schemas lack it: this is the part of its CRD schema that the chart uses, strict.
SERVICE_MONITOR_SCHEMA = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "additionalProperties": False,
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "kind": {"const": "ServiceMonitor"},
        "metadata": {"type": "object"},
        "spec": {
            "type": "object",
            "required": ["endpoints", "selector"],
            "additionalProperties": False,
            "properties": {
                "endpoints": {"type": "array", "minItems": 1, "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "port": {"type": "string"},
                        "path": {"type": "string"},
                        "interval": {"type": "string", "pattern": "^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"},
                        "scrapeTimeout": {"type": "string", "pattern": "^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"},
                    }}},
                "namespaceSelector": {"type": "object", "additionalProperties": False, "properties": {
                    "any": {"type": "boolean"},
                    "matchNames": {"type": "array", "items": {"type": "string"}}}},
                "selector": {"type": "object", "additionalProperties": False, "properties": {
                    "matchLabels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "matchExpressions": {"type": "array"}}},
            },
        },
    },
}


# gateway.networking.k8s.io/v1 HTTPRoute is a custom resource as well: the part the chart uses.
HTTP_ROUTE_SCHEMA = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "additionalProperties": False,
    "properties": {
        "apiVersion": {"const": "gateway.networking.k8s.io/v1"},
        "kind": {"const": "HTTPRoute"},
        "metadata": {"type": "object"},
        "spec": {
            "type": "object", "required": ["parentRefs", "rules"], "additionalProperties": False,
            "properties": {
                "parentRefs": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["name"], "additionalProperties": False,
                    "properties": {k: {"type": "string"} for k in ("group", "kind", "namespace", "name",
                                                                    "sectionName")} | {"port": {"type": "integer"}}}},
                "hostnames": {"type": "array", "items": {"type": "string"}},
                "rules": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False, "properties": {
                        "matches": {"type": "array", "items": {"type": "object", "additionalProperties": False,
                                    "properties": {"path": {"type": "object", "additionalProperties": False,
                                                            "properties": {"type": {"enum": ["Exact", "PathPrefix"]},
                                                                           "value": {"type": "string"}}}}}},
                        "backendRefs": {"type": "array", "items": {
                            "type": "object", "required": ["name", "port"], "additionalProperties": False,
                            "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}}}}},
            },
        },
    },
}
CUSTOM_SCHEMAS = {"ServiceMonitor": SERVICE_MONITOR_SCHEMA, "HTTPRoute": HTTP_ROUTE_SCHEMA}


# --- helpers -------------------------------------------------------------------------------------


def helm(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    assert HELM is not None
    result = subprocess.run([HELM, *args], check=False, capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        pytest.fail(f"helm {' '.join(args)} failed:\n{result.stderr}")
    return result


def keys_values(tmp_path: Path) -> list[str]:
    """``--values`` naming the keys Secret the chart requires (the test's own values come after)."""
    keys_file = tmp_path / "keys.yaml"
    keys_file.write_text(yaml.safe_dump(KEYS))
    return ["--values", str(keys_file)]


def template(values: dict[str, Any], tmp_path: Path, *extra: str, kube_version: str = KUBE_VERSIONS[-1],
             check: bool = True, chart: Path = CHART, keys: bool = True) -> subprocess.CompletedProcess[str]:
    values_file = tmp_path / "values.yaml"
    values_file.write_text(yaml.safe_dump(values))
    return helm("template", RELEASE, str(chart), "--namespace", NAMESPACE, "--kube-version", kube_version,
                *(keys_values(tmp_path) if keys else []), "--values", str(values_file), *extra, check=check)


def render(values: dict[str, Any], tmp_path: Path, kube_version: str = KUBE_VERSIONS[-1],
           keys: bool = True) -> list[dict[str, Any]]:
    out = template(values, tmp_path, kube_version=kube_version, keys=keys).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


def only(docs: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)]
    assert len(found) == 1, f"{len(found)} {kind} {name or ''} in {[d['kind'] for d in docs]}"
    return found[0]


def kinds(docs: list[dict[str, Any]]) -> list[str]:
    return sorted(d["kind"] for d in docs)


def engine_container(docs: list[dict[str, Any]]) -> dict[str, Any]:
    pod = only(docs, "Deployment")["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    return dict(container)


def env_of(container: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e.get("value") for e in container["env"]}


# --- lint and validation -------------------------------------------------------------------------


@pytest.mark.parametrize("config", ["default", "everything-on"])
def test_helm_lint_strict(config: str, tmp_path: Path) -> None:
    values_file = tmp_path / "values.yaml"
    values_file.write_text(yaml.safe_dump(CONFIGS[config]))
    result = helm("lint", "--strict", str(CHART), "--namespace", NAMESPACE, *keys_values(tmp_path),
                  "--values", str(values_file))
    assert "0 chart(s) failed" in result.stdout


@pytest.mark.parametrize("kube_version", KUBE_VERSIONS)
@pytest.mark.parametrize("config", CONFIGS)
def test_every_manifest_validates(config: str, kube_version: str, tmp_path: Path) -> None:
    docs = render(CONFIGS[config], tmp_path, kube_version)
    assert docs
    for doc in docs:
        where = f"{config}: {doc['kind']}/{doc['metadata']['name']} on Kubernetes {kube_version}"
        if doc["kind"] in CUSTOM_SCHEMAS:
            try:
                jsonschema.validate(doc, CUSTOM_SCHEMAS[doc["kind"]])
            except jsonschema.ValidationError as exc:
                pytest.fail(f"{where}: {exc.message}")
            continue
        try:
            kubernetes_validate.validate(doc, kube_version, strict=True)
        except kubernetes_validate.ValidationError as exc:
            pytest.fail(f"{where}: {exc.message} at {'/'.join(map(str, exc.path))}")
        except kubernetes_validate.SchemaNotFoundError as exc:
            pytest.fail(f"{where}: no schema ({exc})")


def test_values_schema_is_closed() -> None:
    """Every object of values.schema.json that lists its properties refuses others."""
    schema = json.loads((CHART / "values.schema.json").read_text())

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                assert node.get("additionalProperties") is False, f"{path} is open"
            for key, child in node.items():
                walk(child, f"{path}/{key}")
        elif isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, f"{path}/{i}")

    walk(schema, "")


def test_values_yaml_matches_its_schema() -> None:
    schema = json.loads((CHART / "values.schema.json").read_text())
    jsonschema.validate(yaml.safe_load((CHART / "values.yaml").read_text()), schema)


# --- what the chart refuses ----------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "complaint"), [
    ("foo=bar", "additional properties 'foo' not allowed"),
    ("service.grpcPortt=1", "additional properties 'grpcPortt' not allowed"),
    ("hpa.enable=true", "additional properties 'enable' not allowed"),
    ("config.logLevel=verbose", "logLevel"),
    ("service.grpcPort=70000", "grpcPort"),
    ("image.pullPolicy=Sometimes", "pullPolicy"),
    ("http.corsOrigins[0]=play.example.com", "corsOrigins"),
    ("validateJob.shards=0", "shards"),
    ("validateJob.rules=chouette", "rules"),
    ("validateJob.claimname=x", "additional properties 'claimname' not allowed"),
])
def test_schema_rejects(setting: str, complaint: str, tmp_path: Path) -> None:
    result = template({}, tmp_path, "--set", setting, check=False)
    assert result.returncode != 0
    assert complaint in result.stderr


@pytest.mark.parametrize(("values", "complaint"), [
    ({"terminationGracePeriodSeconds": 15}, "must be longer than config.drainSeconds + config.graceSeconds"),
    ({"config": {"drainSeconds": 10, "graceSeconds": 10}}, "must be longer than"),
    ({"tls": {"enabled": True}}, "tls.enabled needs tls.secretName"),
    ({"tls": {"clientCA": PEM_CA}}, "need tls.enabled"),
    ({"metrics": {"enabled": False}, "serviceMonitor": {"enabled": True}}, "serviceMonitor.enabled needs metrics.enabled"),
    ({"hpa": {"enabled": True, "minReplicas": 5, "maxReplicas": 3}}, "maxReplicas must be at least"),
    ({"service": {"metricsPort": 50051}}, "must differ"),
    ({"service": {"httpPort": 9090}}, "service.httpPort must differ"),
    ({"http": {"enabled": False, "corsOrigins": ["*"]}}, "need http.enabled"),
    ({"http": {"httpRoute": {"enabled": True}}}, "needs http.httpRoute.parentRefs"),
    ({"validateJob": {"enabled": True}}, "validateJob.enabled needs validateJob.claimName"),
    ({"validateJob": {"enabled": True, "claimName": "a"}, "tls": {"enabled": True, "secretName": "t"}},
     "validateJob with tls.enabled needs validateJob.local: true"),
])
def test_chart_refuses(values: dict[str, Any], complaint: str, tmp_path: Path) -> None:
    result = template(values, tmp_path, check=False)
    assert result.returncode != 0
    assert complaint in result.stderr


def test_kube_version_is_pinned(tmp_path: Path) -> None:
    result = template({}, tmp_path, kube_version="1.26.0", check=False)
    assert result.returncode != 0
    assert "kubeVersion" in result.stderr


# --- what the default chart says -----------------------------------------------------------------


def test_default_objects(tmp_path: Path) -> None:
    docs = render({}, tmp_path)
    assert kinds(docs) == ["Deployment", "NetworkPolicy", "Pod", "PodDisruptionBudget", "Service",
                           "ServiceAccount"]


def test_accelerator_setting(tmp_path: Path) -> None:
    # the image has the compiled accelerator: required by default, so a pod without it fails to start
    assert env_of(engine_container(render({}, tmp_path)))["TAVLA_ACCEL"] == "on"
    off = engine_container(render({"config": {"accelerator": "off"}}, tmp_path))
    assert env_of(off)["TAVLA_ACCEL"] == "off"


def test_deployment_probes_are_native_grpc(tmp_path: Path) -> None:
    container = engine_container(render({}, tmp_path))
    assert container["startupProbe"]["grpc"] == {"port": 50051, "service": ""}
    assert container["livenessProbe"]["grpc"] == {"port": 50051, "service": ""}
    assert container["readinessProbe"]["grpc"] == {"port": 50051, "service": "tavla.v1.RulesService"}


def test_deployment_security(tmp_path: Path) -> None:
    docs = render({}, tmp_path)
    pod = only(docs, "Deployment")["spec"]["template"]["spec"]
    container = engine_container(docs)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    sc = container["securityContext"]
    assert sc["runAsNonRoot"] is True and sc["runAsUser"] == 10001
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"] == {"drop": ["ALL"]}
    assert sc["seccompProfile"] == {"type": "RuntimeDefault"}
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert mounts["/var/cache/tavla"] == "cache" and mounts["/tmp"] == "tmp"
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes["cache"] and "emptyDir" in volumes["tmp"]
    assert container["resources"]["limits"] and container["resources"]["requests"]


def test_deployment_env_follows_the_contract(tmp_path: Path) -> None:
    env = env_of(engine_container(render({}, tmp_path)))
    assert CONTRACT_ENV <= env.keys()
    assert env["TAVLA_PORT"] == "50051" and env["TAVLA_METRICS_PORT"] == "9090"
    assert env["TAVLA_CACHE_DIR"] == "/var/cache/tavla"
    assert not {"TAVLA_TLS_CERT", "TAVLA_TLS_KEY", "TAVLA_TLS_CLIENT_CA", "TAVLA_OTLP_ENDPOINT"} & env.keys()


def test_state_and_dice_keys_come_from_the_named_secret(tmp_path: Path) -> None:
    """Every replica verifies every other's states and dice tokens: TAVLA_STATE_KEYS and
    TAVLA_DICE_KEY come from one existing Secret, which the chart neither makes nor changes."""
    docs = render({"stateKeys": {"existingSecret": "game-keys", "mode": "sign"}}, tmp_path)
    assert "Secret" not in kinds(docs)
    container = engine_container(docs)
    refs = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in container["env"] if "valueFrom" in e}
    assert refs["TAVLA_STATE_KEYS"] == {"name": "game-keys", "key": "state-keys"}
    assert refs["TAVLA_DICE_KEY"] == {"name": "game-keys", "key": "dice-key"}
    assert env_of(container)["TAVLA_STATE_MODE"] == "sign"
    assert env_of(engine_container(render({}, tmp_path)))["TAVLA_STATE_MODE"] == "require"


def test_without_a_keys_secret_the_render_fails_saying_how_to_make_one(tmp_path: Path) -> None:
    # Keys made at render time were new on every `helm template` (GitOps sync): every match died.
    result = template({}, tmp_path, check=False, keys=False)
    assert result.returncode != 0
    assert "stateKeys.existingSecret is required" in result.stderr
    command = next(line.strip() for line in result.stderr.splitlines() if "kubectl" in line)
    assert command == (f"kubectl -n {NAMESPACE} create secret generic {FULLNAME}-keys "
                       '--from-literal=state-keys="k1:$(openssl rand -base64 32)" '
                       '--from-literal=dice-key="$(openssl rand -base64 32)"')
    assert f"stateKeys.existingSecret={FULLNAME}-keys" in result.stderr and "stateKeys.generate" in result.stderr


@pytest.mark.parametrize("config", ["default", "everything-on"])
def test_two_renders_are_identical(config: str, tmp_path: Path) -> None:
    # what a GitOps tool applies on each sync: nothing may change between renders
    assert template(CONFIGS[config], tmp_path).stdout == template(CONFIGS[config], tmp_path).stdout


def test_generated_keys_are_a_dev_opt_in(tmp_path: Path) -> None:
    import base64

    from tavla.referee.keys import parse_keys

    docs = render({"stateKeys": {"generate": True}}, tmp_path, keys=False)
    secret_name = f"{FULLNAME}-keys"
    secret = only(docs, "Secret", secret_name)
    assert secret["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"
    keys = parse_keys(base64.b64decode(secret["data"]["state-keys"]).decode())
    assert len(keys) == 1 and len(keys[0][1]) == 32
    assert len(base64.b64decode(secret["data"]["dice-key"])) >= 32
    refs = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in engine_container(docs)["env"] if "valueFrom" in e}
    assert refs["TAVLA_STATE_KEYS"] == {"name": secret_name, "key": "state-keys"}
    # a named Secret wins: nothing is generated
    both = render({"stateKeys": {"generate": True, "existingSecret": "game-keys"}}, tmp_path, keys=False)
    assert "Secret" not in kinds(both)


def test_termination_grace_outlasts_drain_and_grace(tmp_path: Path) -> None:
    docs = render({}, tmp_path)
    env = env_of(engine_container(docs))
    grace = only(docs, "Deployment")["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert grace == 20
    assert grace > float(env["TAVLA_DRAIN_SECONDS"]) + float(env["TAVLA_GRACE_SECONDS"])


def test_topology_spread(tmp_path: Path) -> None:
    pod = only(render({}, tmp_path), "Deployment")["spec"]["template"]["spec"]
    keys = [c["topologyKey"] for c in pod["topologySpreadConstraints"]]
    assert keys == ["topology.kubernetes.io/zone", "kubernetes.io/hostname"]
    assert all(c["whenUnsatisfiable"] == "ScheduleAnyway" for c in pod["topologySpreadConstraints"])


def test_service_ports_are_named(tmp_path: Path) -> None:
    docs = render({}, tmp_path)
    service = only(docs, "Service")
    assert [(p["name"], p["port"], p["targetPort"]) for p in service["spec"]["ports"]] == [
        ("grpc", 50051, "grpc"), ("http-metrics", 9090, "http-metrics"), ("http", 8080, "http")]
    ports = [(p["name"], p["containerPort"]) for p in engine_container(docs)["ports"]]
    assert ports == [("grpc", 50051), ("http-metrics", 9090), ("http", 8080)]
    env = env_of(engine_container(docs))
    assert env["TAVLA_HTTP_PORT"] == "8080" and "TAVLA_CORS_ORIGINS" not in env  # no CORS by default


def test_http_port_off(tmp_path: Path) -> None:
    docs = render(CONFIGS["http-off"], tmp_path)
    container = engine_container(docs)
    assert "TAVLA_HTTP_PORT" not in env_of(container)
    assert [p["name"] for p in container["ports"]] == ["grpc", "http-metrics"]
    assert [p["name"] for p in only(docs, "Service")["spec"]["ports"]] == ["grpc", "http-metrics"]


def test_http_ingress_route_and_cors(tmp_path: Path) -> None:
    docs = render(EVERYTHING_ON, tmp_path)
    assert env_of(engine_container(docs))["TAVLA_CORS_ORIGINS"] == "https://play.example.com,http://localhost:5173"
    ingress = only(docs, "Ingress")
    assert ingress["spec"]["ingressClassName"] == "nginx"
    (rule,) = ingress["spec"]["rules"]
    assert rule["host"] == "tavla.example.com"
    assert rule["http"]["paths"][0]["backend"]["service"] == {"name": FULLNAME, "port": {"name": "http"}}
    route = only(docs, "HTTPRoute")
    assert route["spec"]["parentRefs"] == [{"name": "public", "namespace": "gateways", "sectionName": "https"}]
    assert route["spec"]["rules"][0]["backendRefs"] == [{"name": FULLNAME, "port": 8080}]


def test_helm_test_pod_checks_the_service_but_is_not_behind_it(tmp_path: Path) -> None:
    docs = render({}, tmp_path)
    pod = only(docs, "Pod")
    assert pod["metadata"]["annotations"]["helm.sh/hook"] == "test"
    (container,) = pod["spec"]["containers"]
    assert env_of(container)["TARGET"] == f"{FULLNAME}.{NAMESPACE}.svc:50051"
    assert "grpc_health.v1" in container["command"][-1]
    selector = only(docs, "Service")["spec"]["selector"]
    labels = pod["metadata"]["labels"]
    assert not all(labels.get(k) == v for k, v in selector.items())


# --- the optional blocks -------------------------------------------------------------------------


def test_hpa_owns_the_replicas(tmp_path: Path) -> None:
    docs = render(CONFIGS["hpa"], tmp_path)
    assert "replicas" not in only(docs, "Deployment")["spec"]
    hpa = only(docs, "HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["minReplicas"] == 2 and hpa["spec"]["maxReplicas"] == 10
    assert hpa["spec"]["metrics"][0]["resource"]["target"] == {"type": "Utilization", "averageUtilization": 70}


@pytest.mark.parametrize(("values", "has_pdb"), [
    ({}, True),
    ({"replicaCount": 1}, False),
    ({"replicaCount": 1, "hpa": {"enabled": True, "minReplicas": 2}}, True),
    ({"hpa": {"enabled": True, "minReplicas": 1}}, False),
    ({"podDisruptionBudget": {"enabled": False}}, False),
])
def test_pdb_only_with_more_than_one_replica(values: dict[str, Any], has_pdb: bool, tmp_path: Path) -> None:
    assert ("PodDisruptionBudget" in kinds(render(values, tmp_path))) == has_pdb


def test_metrics_off(tmp_path: Path) -> None:
    docs = render(CONFIGS["metrics-off"], tmp_path)
    container = engine_container(docs)
    assert env_of(container)["TAVLA_METRICS_PORT"] == "0"
    assert [p["name"] for p in container["ports"]] == ["grpc", "http"]
    assert [p["name"] for p in only(docs, "Service")["spec"]["ports"]] == ["grpc", "http"]


def test_everything_on(tmp_path: Path) -> None:
    docs = render(EVERYTHING_ON, tmp_path)
    expected = {"ConfigMap", "Deployment", "HorizontalPodAutoscaler", "NetworkPolicy", "Pod",
                "PodDisruptionBudget", "Secret", "Service", "ServiceAccount", "ServiceMonitor"}
    assert expected <= set(kinds(docs))
    assert {s["metadata"]["name"] for s in docs if s["kind"] == "Service"} == {FULLNAME, f"{FULLNAME}-headless"}
    headless = only(docs, "Service", f"{FULLNAME}-headless")
    assert headless["spec"]["clusterIP"] == "None"
    container = engine_container(docs)
    assert container["image"] == "registry.example/tavla/tavla-engine@sha256:" + "ab" * 32
    env = env_of(container)
    assert env["TAVLA_OTLP_ENDPOINT"] == "http://otel-collector.observability:4317"
    assert env["TAVLA_MAX_CALL_SECONDS"] == "5" and env["TAVLA_REFLECTION"] == "false"
    monitor = only(docs, "ServiceMonitor")
    assert monitor["spec"]["endpoints"][0]["port"] == "http-metrics"
    assert monitor["metadata"]["labels"]["release"] == "prometheus"
    policy = only(docs, "NetworkPolicy")
    assert [[p["port"] for p in rule["ports"]] for rule in policy["spec"]["ingress"]] == [["grpc", "http"],
                                                                                          ["http-metrics"]]


def test_tls_from_values(tmp_path: Path) -> None:
    docs = render(EVERYTHING_ON, tmp_path)
    secret = only(docs, "Secret", f"{FULLNAME}-tls")
    assert secret["type"] == "kubernetes.io/tls" and set(secret["data"]) == {"tls.crt", "tls.key"}
    client_ca = only(docs, "ConfigMap", f"{FULLNAME}-client-ca")
    assert client_ca["data"]["ca.crt"].strip() == PEM_CA.strip()
    container = engine_container(docs)
    env = env_of(container)
    assert env["TAVLA_TLS_CERT"] == "/etc/tavla/tls/tls.crt"
    assert env["TAVLA_TLS_KEY"] == "/etc/tavla/tls/tls.key"
    assert env["TAVLA_TLS_CLIENT_CA"] == "/etc/tavla/client-ca/ca.crt"
    # the kubelet's gRPC probe cannot speak TLS: an exec probe asks health over TLS, so a draining
    # pod (NOT_SERVING) leaves the Service (a TCP check could not see it)
    for probe, service in (("startupProbe", ""), ("livenessProbe", ""),
                           ("readinessProbe", "tavla.v1.RulesService")):
        command = container[probe]["exec"]["command"]
        assert command[:3] == ["python3", "-m", "tavla.server.process.probe"]
        assert command[command.index("--service") + 1] == service
        assert command[command.index("--tls-dir") + 1] == "/etc/tavla/tls"
        assert command[command.index("--server-name") + 1] == "tavla-engine.games.svc"
        assert command[-1] == "--mtls"
    test_env = env_of(only(docs, "Pod")["spec"]["containers"][0])
    assert test_env["TLS_DIR"] == "/etc/tavla/tls" and test_env["MTLS"] == "true"


def test_tls_from_an_existing_secret(tmp_path: Path) -> None:
    docs = render(CONFIGS["tls-existing-secret"], tmp_path)
    assert "Secret" not in kinds(docs) and "ConfigMap" not in kinds(docs)
    volumes = {v["name"]: v for v in only(docs, "Deployment")["spec"]["template"]["spec"]["volumes"]}
    assert volumes["tls"]["secret"]["secretName"] == "tavla-tls"
    assert volumes["client-ca"]["configMap"]["name"] == "games-ca"


def test_grafana_dashboard(tmp_path: Path) -> None:
    if not DOCS_DASHBOARD.exists():
        pytest.skip("docs/grafana-dashboard.json has not landed yet")
    assert DASHBOARD.read_bytes() == DOCS_DASHBOARD.read_bytes(), "run `make chart-dashboard`"
    docs = render({"grafanaDashboard": {"enabled": True}}, tmp_path)
    config_map = only(docs, "ConfigMap", f"{FULLNAME}-dashboard")
    assert config_map["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert json.loads(config_map["data"]["tavla-engine.json"]) == json.loads(DOCS_DASHBOARD.read_text())


def test_grafana_dashboard_needs_the_file(tmp_path: Path) -> None:
    chart = tmp_path / "chart"
    shutil.copytree(CHART, chart)
    (chart / "files" / "grafana-dashboard.json").unlink(missing_ok=True)
    result = template({"grafanaDashboard": {"enabled": True}}, tmp_path, check=False, chart=chart)
    assert result.returncode != 0 and "files/grafana-dashboard.json" in result.stderr


@pytest.mark.parametrize("config", ["default", "everything-on"])
def test_notes_render(config: str, tmp_path: Path) -> None:
    """NOTES.txt, rendered through a ConfigMap in a copy of the chart (`helm template` skips it)."""
    chart = tmp_path / "chart"
    shutil.copytree(CHART, chart)
    shutil.copy(chart / "templates" / "NOTES.txt", chart / "files" / "notes-under-test.txt")
    (chart / "templates" / "notes-under-test.yaml").write_text(
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n'
        '  notes: {{ tpl (.Files.Get "files/notes-under-test.txt") . | quote }}\n')
    notes = only(render_chart(CONFIGS[config], tmp_path, chart), "ConfigMap", "notes")["data"]["notes"]
    assert f"{FULLNAME}.{NAMESPACE}.svc:50051" in notes
    assert "docs/operating.md" in notes
    if config == "everything-on":
        assert "client certificates required" in notes and "dns:///" in notes


def render_chart(values: dict[str, Any], tmp_path: Path, chart: Path) -> list[dict[str, Any]]:
    out = template(values, tmp_path, chart=chart).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


def test_validate_job_is_indexed_over_the_archive(tmp_path: Path) -> None:
    # real match archives: an archive on a volume, checked in parallel shards through the Service
    docs = render(CONFIGS["validate-job"], tmp_path)
    job = only(docs, "Job", f"{FULLNAME}-validate")
    spec = job["spec"]
    assert (spec["completionMode"], spec["completions"], spec["parallelism"]) == ("Indexed", 4, 4)
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    assert container["args"] == ["replay", "--quiet", "--shard", "$(SHARD)/4", "--jobs", "2", "--rules", "auto",
                                 "--target", f"{FULLNAME}.{NAMESPACE}.svc:50051", "--connect-timeout", "60",
                                 "--no-fail", "/archive/"]
    (shard,) = container["env"]
    assert shard["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.annotations['batch.kubernetes.io/job-completion-index']"
    archive = next(v for v in pod["volumes"] if v["name"] == "archive")
    assert archive["persistentVolumeClaim"] == {"claimName": "match-archive", "readOnly": True}
    assert {"name": "archive", "mountPath": "/archive", "readOnly": True} in container["volumeMounts"]
    assert pod["restartPolicy"] == "Never" and container["securityContext"]["readOnlyRootFilesystem"] is True
    # the Service selects the engine's pods only
    selector = only(docs, "Service")["spec"]["selector"]
    assert not selector.items() <= spec["template"]["metadata"]["labels"].items()


def test_validate_job_everything_on(tmp_path: Path) -> None:
    job = only(render(EVERYTHING_ON, tmp_path), "Job")
    container = job["spec"]["template"]["spec"]["containers"][0]
    assert job["spec"]["completions"] == 8 and job["spec"]["parallelism"] == 4
    assert job["spec"]["ttlSecondsAfterFinished"] == 3600
    assert "--local" in container["args"] and "--target" not in container["args"]
    assert "--no-fail" not in container["args"] and container["args"][-1] == "/archive/galaxy/2024"
    assert container["args"][container["args"].index("--rules") + 1] == "money-jacoby"
