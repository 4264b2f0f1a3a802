{{/* Names and labels, after podinfo's _helpers.tpl. */}}

{{/* The chart name, or nameOverride. */}}
{{- define "tavla-engine.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* <release>-<name>, or the release name when it already contains the name; at most 63. */}}
{{- define "tavla-engine.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tavla-engine.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object but the helm test pod. */}}
{{- define "tavla-engine.labels" -}}
helm.sh/chart: {{ include "tavla-engine.chart" . }}
{{ include "tavla-engine.selectorLabels" . }}
{{ include "tavla-engine.versionLabels" . }}
app.kubernetes.io/component: rules-engine
{{- end }}

{{- define "tavla-engine.versionLabels" -}}
app.kubernetes.io/version: {{ (default .Chart.AppVersion .Values.image.tag) | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/part-of: tavla
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "tavla-engine.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tavla-engine.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "tavla-engine.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tavla-engine.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* repository:tag, or repository@digest. */}}
{{- define "tavla-engine.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* Replicas the Deployment has at least: the HPA's minimum when it is on. */}}
{{- define "tavla-engine.minReplicas" -}}
{{- if .Values.hpa.enabled }}{{ .Values.hpa.minReplicas }}{{ else }}{{ .Values.replicaCount }}{{ end }}
{{- end }}

{{/* The TLS Secret: the given one, or the one the chart makes from tls.cert/tls.key. */}}
{{- define "tavla-engine.tlsSecretName" -}}
{{- default (printf "%s-tls" (include "tavla-engine.fullname" .)) .Values.tls.secretName }}
{{- end }}

{{/* The client CA ConfigMap, or "" without mTLS. */}}
{{- define "tavla-engine.clientCAConfigMapName" -}}
{{- if .Values.tls.clientCAConfigMap }}
{{- .Values.tls.clientCAConfigMap }}
{{- else if .Values.tls.clientCA }}
{{- printf "%s-client-ca" (include "tavla-engine.fullname" .) }}
{{- end }}
{{- end }}

{{/* Settings that do not go together fail the render with a message. */}}
{{- define "tavla-engine.validate" -}}
{{- $drainAndGrace := addf .Values.config.drainSeconds .Values.config.graceSeconds }}
{{- if le (float64 .Values.terminationGracePeriodSeconds) $drainAndGrace }}
{{- fail (printf "terminationGracePeriodSeconds (%v) must be longer than config.drainSeconds + config.graceSeconds (%v), or the kubelet kills in-flight calls" .Values.terminationGracePeriodSeconds $drainAndGrace) }}
{{- end }}
{{- if and .Values.tls.enabled (not .Values.tls.secretName) (not (and .Values.tls.cert .Values.tls.key)) }}
{{- fail "tls.enabled needs tls.secretName (an existing kubernetes.io/tls Secret) or both tls.cert and tls.key" }}
{{- end }}
{{- if and (or .Values.tls.clientCA .Values.tls.clientCAConfigMap) (not .Values.tls.enabled) }}
{{- fail "tls.clientCA / tls.clientCAConfigMap (mTLS) need tls.enabled" }}
{{- end }}
{{- if and .Values.serviceMonitor.enabled (not .Values.metrics.enabled) }}
{{- fail "serviceMonitor.enabled needs metrics.enabled" }}
{{- end }}
{{- if and .Values.hpa.enabled (lt (int .Values.hpa.maxReplicas) (int .Values.hpa.minReplicas)) }}
{{- fail "hpa.maxReplicas must be at least hpa.minReplicas" }}
{{- end }}
{{- if and .Values.metrics.enabled (eq (int .Values.service.metricsPort) (int .Values.service.grpcPort)) }}
{{- fail "service.metricsPort and service.grpcPort must differ" }}
{{- end }}
{{- if and .Values.http.enabled (or (eq (int .Values.service.httpPort) (int .Values.service.grpcPort)) (and .Values.metrics.enabled (eq (int .Values.service.httpPort) (int .Values.service.metricsPort)))) }}
{{- fail "service.httpPort must differ from service.grpcPort and service.metricsPort" }}
{{- end }}
{{- if and (or .Values.http.ingress.enabled .Values.http.httpRoute.enabled .Values.http.corsOrigins) (not .Values.http.enabled) }}
{{- fail "http.ingress, http.httpRoute and http.corsOrigins need http.enabled" }}
{{- end }}
{{- /* Keys made at render time change on every `helm template` (GitOps), voiding every match in
play: the chart makes none unless a dev install asks for them. */}}
{{- if not (or .Values.stateKeys.existingSecret .Values.stateKeys.generate) }}
{{- $name := printf "%s-keys" (include "tavla-engine.fullname" .) }}
{{- fail (printf "stateKeys.existingSecret is required: every replica needs the same state and dice keys, kept across renders (the chart makes none: `helm template` would make new ones each time and void every match in play). Create the Secret once, then set stateKeys.existingSecret=%s:\n  kubectl -n %s create secret generic %s --from-literal=state-keys=\"k1:$(openssl rand -base64 32)\" --from-literal=dice-key=\"$(openssl rand -base64 32)\"\n(a throwaway dev install may set stateKeys.generate=true instead; docs/security.md#keys)" $name .Release.Namespace $name) }}
{{- end }}
{{- end }}

{{/* The Secret holding the state keys and the dice key. */}}
{{- define "tavla-engine.keysSecretName" -}}
{{- default (printf "%s-keys" (include "tavla-engine.fullname" .)) .Values.stateKeys.existingSecret }}
{{- end }}

{{/*
Exec probe command asking the gRPC health service over TLS (tavla.server.process.probe), for TLS setups:
the kubelet's native gRPC probe is plaintext only. Args: root (the chart context), service.
*/}}
{{- define "tavla-engine.tlsProbe" -}}
{{- $root := .root -}}
{{- $fullname := include "tavla-engine.fullname" $root -}}
- python3
- -m
- tavla.server.process.probe
- --port
- {{ $root.Values.service.grpcPort | quote }}
- --service
- {{ .service | quote }}
- --tls-dir
- /etc/tavla/tls
- --server-name
- {{ default (printf "%s.%s.svc" $fullname $root.Release.Namespace) $root.Values.tests.tlsServerName | quote }}
{{- if include "tavla-engine.clientCAConfigMapName" $root }}
- --mtls
{{- end }}
{{- end }}
