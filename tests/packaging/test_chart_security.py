"""The chart's defaults meet the Kubernetes "restricted" Pod Security Standard, checked on the
rendered pod specs (the Deployment's and the `helm test` pod's) rule by rule, and its
NetworkPolicy is on and admits only the peers it names; no render makes keys.

Rules from https://kubernetes.io/docs/concepts/security/pod-security-standards/ (v1.27+), baseline
and restricted. Needs helm, as tests/packaging/test_chart_render.py (``HELM`` or ``make helm``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_chart_render import CONFIGS, EVERYTHING_ON, render

# restricted: only these volume types
ALLOWED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
                   "projected", "secret"}
ALLOWED_CAPABILITIES = {"NET_BIND_SERVICE"}
SAFE_SYSCTLS = {"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
                "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
                "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                "net.ipv4.tcp_keepalive_probes"}


def restricted_violations(pod: dict[str, Any]) -> list[str]:
    """Every rule of the restricted profile (baseline included) ``pod`` (a PodSpec) breaks."""
    bad = []
    psc = pod.get("securityContext") or {}
    containers = [*pod.get("containers", []), *pod.get("initContainers", []),
                  *pod.get("ephemeralContainers", [])]
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        if pod.get(key):
            bad.append(f"{key} is set")
    if psc.get("windowsOptions", {}).get("hostProcess"):
        bad.append("hostProcess")
    for volume in pod.get("volumes", []):
        kinds = set(volume) - {"name"}
        if not kinds <= ALLOWED_VOLUMES:
            bad.append(f"volume {volume['name']} is {kinds - ALLOWED_VOLUMES}")
    for sysctl in psc.get("sysctls", []):
        if sysctl["name"] not in SAFE_SYSCTLS:
            bad.append(f"sysctl {sysctl['name']}")
    if psc.get("runAsUser") == 0:
        bad.append("pod runAsUser 0")
    for c in containers:
        sc = c.get("securityContext") or {}
        name = c["name"]
        if sc.get("privileged"):
            bad.append(f"{name}: privileged")
        if sc.get("allowPrivilegeEscalation") is not False:
            bad.append(f"{name}: allowPrivilegeEscalation is not false")
        caps = sc.get("capabilities") or {}
        if "ALL" not in caps.get("drop", []):
            bad.append(f"{name}: capabilities do not drop ALL")
        if not set(caps.get("add", [])) <= ALLOWED_CAPABILITIES:
            bad.append(f"{name}: adds capabilities {caps.get('add')}")
        if not (sc.get("runAsNonRoot") is True or (psc.get("runAsNonRoot") is True
                                                  and sc.get("runAsNonRoot") is not False)):
            bad.append(f"{name}: runAsNonRoot is not true")
        if sc.get("runAsUser") == 0:
            bad.append(f"{name}: runAsUser 0")
        seccomp = (sc.get("seccompProfile") or psc.get("seccompProfile") or {}).get("type")
        if seccomp not in ("RuntimeDefault", "Localhost"):
            bad.append(f"{name}: seccompProfile is {seccomp!r}")
        if sc.get("seLinuxOptions", {}).get("type") not in (None, "", "container_t", "container_init_t",
                                                             "container_kvm_t", "container_engine_t"):
            bad.append(f"{name}: seLinuxOptions type")
        if sc.get("procMount") not in (None, "Default"):
            bad.append(f"{name}: procMount")
        if sc.get("appArmorProfile", {}).get("type") not in (None, "RuntimeDefault", "Localhost"):
            bad.append(f"{name}: appArmorProfile")
        for port in c.get("ports", []):
            if port.get("hostPort"):
                bad.append(f"{name}: hostPort {port['hostPort']}")
    return bad


def pods(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out = {}
    for doc in docs:
        if doc["kind"] == "Deployment":
            out["deployment"] = doc["spec"]["template"]["spec"]
        elif doc["kind"] == "Pod":
            out["helm test pod"] = doc["spec"]
    return out


@pytest.mark.parametrize("config", ["default", "everything-on", "tls-existing-secret", "minimal"])
def test_rendered_pods_meet_the_restricted_pod_security_standard(config: str, tmp_path: Path) -> None:
    rendered = pods(render(CONFIGS[config], tmp_path))
    assert "deployment" in rendered
    for name, pod in rendered.items():
        assert restricted_violations(pod) == [], name


def test_the_check_catches_what_the_profile_forbids() -> None:
    ok = {"securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
          "containers": [{"name": "c", "securityContext": {"allowPrivilegeEscalation": False,
                                                          "capabilities": {"drop": ["ALL"]}}}]}
    assert restricted_violations(ok) == []
    for broken in ({"hostNetwork": True}, {"volumes": [{"name": "h", "hostPath": {"path": "/"}}]},
                   {"containers": [{"name": "c", "securityContext": {"allowPrivilegeEscalation": False,
                                                                    "capabilities": {"drop": ["ALL"],
                                                                                     "add": ["SYS_ADMIN"]}}}]},
                   {"securityContext": {"runAsNonRoot": False, "seccompProfile": {"type": "RuntimeDefault"}}},
                   {"containers": [{"name": "c", "securityContext": {"capabilities": {"drop": ["ALL"]}}}]}):
        assert restricted_violations({**ok, **broken}), broken


def test_network_policy_is_on_by_default_and_admits_only_named_peers(tmp_path: Path) -> None:
    # finding: the NetworkPolicy was off by default, and when on an empty `from` admitted everyone
    (policy,) = [d for d in render({}, tmp_path) if d["kind"] == "NetworkPolicy"]
    rules = policy["spec"]["ingress"]
    assert [r["ports"][0]["port"] for r in rules] == ["grpc"]  # metrics: no peers by default, closed
    assert rules[0]["from"] == [{"podSelector": {}}]  # the release's own namespace
    for rule in rules:
        assert rule.get("from"), "a rule without peers admits everyone"
    closed = render({"networkPolicy": {"from": [], "metricsFrom": []}}, tmp_path)
    (policy,) = [d for d in closed if d["kind"] == "NetworkPolicy"]
    assert policy["spec"]["ingress"] == [] and policy["spec"]["policyTypes"] == ["Ingress"]
    everything = render(EVERYTHING_ON, tmp_path)
    (policy,) = [d for d in everything if d["kind"] == "NetworkPolicy"]
    assert all(rule.get("from") for rule in policy["spec"]["ingress"])


@pytest.mark.parametrize("config", CONFIGS)
def test_no_render_holds_key_material_of_its_own(config: str, tmp_path: Path) -> None:
    # keys made at render time differ on every `helm template`: a GitOps sync replaced them and
    # every live match failed its signature check. The keys live in a Secret the operator made.
    docs = render(CONFIGS[config], tmp_path)
    assert not [d for d in docs if d["kind"] == "Secret" and {"state-keys", "dice-key"} & set(d.get("data", {}))]
