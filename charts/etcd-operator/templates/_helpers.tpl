{{/* The chart's name, or nameOverride: the app.kubernetes.io/name label. */}}
{{- define "etcd-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every object's name: fullnameOverride, else <release>-<name> unless the release name has it. */}}
{{- define "etcd-operator.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "etcd-operator.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "etcd-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "etcd-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "etcd-operator.labels" -}}
{{ include "etcd-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/*
The operator's ServiceAccount. Without one of our own, a name is required: falling back to the namespace's
`default` ServiceAccount would bind the operator's cluster-wide role to every Pod that runs as `default` there.
*/}}
{{- define "etcd-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "etcd-operator.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.create=false needs serviceAccount.name: the operator would otherwise run as (and its roles be bound to) the namespace's default ServiceAccount" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "etcd-operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/*
The operator's rules (files/clusterrole-rules.yaml, a copy of config/rbac/role.yaml) split by scope: a RoleBinding
cannot grant cluster-scoped resources, so with watchNamespaces the Node rule goes to a ClusterRole of its own.
*/}}
{{- define "etcd-operator.clusterScopedResources" -}}
{{- list "nodes" | toJson -}}
{{- end -}}

{{- define "etcd-operator.namespacedRules" -}}
{{- $clusterScoped := include "etcd-operator.clusterScopedResources" . | fromJsonArray -}}
{{- $rules := list -}}
{{- range (.Files.Get "files/clusterrole-rules.yaml" | fromYaml).rules -}}
{{- $rule := . -}}
{{- if not (has (first $rule.resources) $clusterScoped) -}}
{{- $rules = append $rules $rule -}}
{{- end -}}
{{- end -}}
{{- toYaml $rules -}}
{{- end -}}

{{- define "etcd-operator.clusterScopedRules" -}}
{{- $clusterScoped := include "etcd-operator.clusterScopedResources" . | fromJsonArray -}}
{{- $rules := list -}}
{{- range (.Files.Get "files/clusterrole-rules.yaml" | fromYaml).rules -}}
{{- if has (first .resources) $clusterScoped -}}
{{- $rules = append $rules . -}}
{{- end -}}
{{- end -}}
{{- toYaml $rules -}}
{{- end -}}

{{/* The namespaces that get member NetworkPolicies: the ones set, else the watched ones. */}}
{{- define "etcd-operator.memberPolicyNamespaces" -}}
{{- $namespaces := .Values.networkPolicy.members.namespaces | default .Values.watchNamespaces -}}
{{- if not $namespaces -}}
{{- fail "networkPolicy.members.enabled needs networkPolicy.members.namespaces (or watchNamespaces): a NetworkPolicy is namespaced, and with all namespaces watched the chart does not know where the clusters are" -}}
{{- end -}}
{{- toJson $namespaces -}}
{{- end -}}

{{/* Labels the operator puts on every etcd member Pod (operator/.../resources/Labels.java). */}}
{{- define "etcd-operator.memberLabels" -}}
app.kubernetes.io/name: etcd
app.kubernetes.io/managed-by: etcd-operator
{{- end -}}

{{/* The operator's user name as the API server authenticates its ServiceAccount; its deletions are never refused. */}}
{{- define "etcd-operator.user" -}}
system:serviceaccount:{{ .Release.Namespace }}:{{ include "etcd-operator.serviceAccountName" . }}
{{- end -}}

{{/* Namespaces the deletion protection covers, as a namespaceSelector: the watched ones, else every namespace. */}}
{{- define "etcd-operator.protectedNamespaces" -}}
{{- if .Values.watchNamespaces -}}
namespaceSelector:
  matchExpressions:
  - key: kubernetes.io/metadata.name
    operator: In
    values: {{ toJson .Values.watchNamespaces }}
{{- else -}}
namespaceSelector: {}
{{- end -}}
{{- end -}}
