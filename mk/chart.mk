# The Helm chart (helm/tavla-engine): `make test-chart` lints it with `helm lint --strict` and
# renders it in every configuration, each manifest validated offline against the Kubernetes
# schemas (tests/packaging/test_chart_render.py). helm is built from source by deploy/install-helm.sh.
HELM_VERSION := v3.22.0
# kubernetes-validate ships the schemas; the chart is checked against its lowest and highest
# supported Kubernetes (Chart.yaml kubeVersion >=1.27).
KUBERNETES_VALIDATE_VERSION := 1.37.0
CHART_CACHE_DIR ?= .cache
HELM := $(CHART_CACHE_DIR)/bin/helm-$(HELM_VERSION)

TEST_TARGETS += test-chart
.PHONY: test-chart helm chart-dashboard

helm: $(HELM)

$(HELM):
	@mkdir -p $(CHART_CACHE_DIR) && { [ -f $(CHART_CACHE_DIR)/.gitignore ] || echo '*' > $(CHART_CACHE_DIR)/.gitignore; }
	deploy/install-helm.sh $(HELM_VERSION) $@

.venv-test/.kubernetes-validate-$(KUBERNETES_VALIDATE_VERSION): .venv-test/.installed
	.venv-test/bin/pip install --quiet kubernetes-validate==$(KUBERNETES_VALIDATE_VERSION)
	touch $@

# The chart ships a copy of docs/grafana-dashboard.json (Helm reads no file outside the chart).
chart-dashboard:
	@if [ -f docs/grafana-dashboard.json ] && \
	    ! cmp -s docs/grafana-dashboard.json helm/tavla-engine/files/grafana-dashboard.json; then \
	    cp docs/grafana-dashboard.json helm/tavla-engine/files/grafana-dashboard.json; \
	    echo "chart-dashboard: copied docs/grafana-dashboard.json into helm/tavla-engine/files/"; \
	fi

test-chart: $(HELM) .venv-test/.kubernetes-validate-$(KUBERNETES_VALIDATE_VERSION) chart-dashboard
	HELM=$(abspath $(HELM)) .venv-test/bin/python -m pytest tests/packaging/test_chart_render.py tests/packaging/test_chart_security.py
