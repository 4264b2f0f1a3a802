package dev.tavla.client;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The matching rules of clients/conformance/README.md, as in every client's runner. */
final class Match {
  static final double TOLERANCE = 1e-9;

  private Match() {}

  static boolean isDefault(JsonElement v) {
    if (v == null || v.isJsonNull()) {
      return true;
    }
    if (v.isJsonArray()) {
      return v.getAsJsonArray().isEmpty();
    }
    if (v.isJsonObject()) {
      return v.getAsJsonObject().isEmpty();
    }
    JsonPrimitive p = v.getAsJsonPrimitive();
    if (p.isBoolean()) {
      return !p.getAsBoolean();
    }
    if (p.isNumber()) {
      return p.getAsDouble() == 0;
    }
    String s = p.getAsString();
    return s.isEmpty() || s.endsWith("_UNSPECIFIED");
  }

  /** Where {@code actual} (a response as proto JSON) fails {@code expected}; empty when it matches. */
  static List<String> match(JsonElement expected, JsonElement actual, String path) {
    List<String> problems = new ArrayList<>();
    if (actual == null) {
      actual = JsonNull.INSTANCE;
    }
    if (expected.isJsonObject()) {
      JsonObject want = expected.getAsJsonObject();
      if (want.keySet().stream().anyMatch(k -> k.startsWith("$"))) {
        return operators(want, actual, path);
      }
      JsonObject got = actual.isJsonNull() ? new JsonObject() : null;
      if (got == null && !actual.isJsonObject()) {
        problems.add(path + ": expected an object, got " + actual);
        return problems;
      }
      if (got == null) {
        got = actual.getAsJsonObject();
      }
      for (Map.Entry<String, JsonElement> e : want.entrySet()) {
        problems.addAll(match(e.getValue(), got.get(e.getKey()), path + "." + e.getKey()));
      }
      return problems;
    }
    if (expected.isJsonArray()) {
      JsonArray want = expected.getAsJsonArray();
      JsonArray got = actual.isJsonNull() ? new JsonArray() : null;
      if (got == null && actual.isJsonArray()) {
        got = actual.getAsJsonArray();
      }
      if (got == null || got.size() != want.size()) {
        problems.add(path + ": expected " + want + ", got " + actual);
        return problems;
      }
      for (int i = 0; i < want.size(); i++) {
        problems.addAll(match(want.get(i), got.get(i), path + "[" + i + "]"));
      }
      return problems;
    }
    if (actual.isJsonNull() && isDefault(expected)) {
      return problems;
    }
    if (expected.isJsonPrimitive() && expected.getAsJsonPrimitive().isNumber()
        && actual.isJsonPrimitive() && actual.getAsJsonPrimitive().isNumber()) {
      double w = expected.getAsDouble();
      if (Math.abs(actual.getAsDouble() - w) > TOLERANCE * Math.max(1, Math.abs(w))) {
        problems.add(path + ": expected " + expected + ", got " + actual);
      }
      return problems;
    }
    if (!expected.equals(actual)) {
      problems.add(path + ": expected " + expected + ", got " + actual);
    }
    return problems;
  }

  private static List<String> operators(JsonObject ops, JsonElement actual, String path) {
    List<String> problems = new ArrayList<>();
    JsonArray items = actual.isJsonArray() ? actual.getAsJsonArray() : new JsonArray();
    for (Map.Entry<String, JsonElement> op : ops.entrySet()) {
      switch (op.getKey()) {
        case "$absent":
          if (op.getValue().getAsBoolean() && !isDefault(actual)) {
            problems.add(path + ": expected absent, got " + actual);
          }
          break;
        case "$len":
          if ((!actual.isJsonNull() && !actual.isJsonArray()) || items.size() != op.getValue().getAsInt()) {
            problems.add(path + ": expected " + op.getValue() + " elements, got " + items.size());
          }
          break;
        case "$regex":
          String text =
              actual.isJsonNull()
                  ? ""
                  : actual.isJsonPrimitive() && actual.getAsJsonPrimitive().isString() ? actual.getAsString() : null;
          if (text == null || !Pattern.compile(op.getValue().getAsString()).matcher(text).find()) {
            problems.add(path + ": " + actual + " does not match /" + op.getValue().getAsString() + "/");
          }
          break;
        case "$contains":
          JsonArray wanted = op.getValue().getAsJsonArray();
          for (int i = 0; i < wanted.size(); i++) {
            boolean found = false;
            for (JsonElement item : items) {
              if (match(wanted.get(i), item, path).isEmpty()) {
                found = true;
                break;
              }
            }
            if (!found) {
              problems.add(path + ": no element matches $contains[" + i + "] " + wanted.get(i));
            }
          }
          break;
        default:
          problems.add(path + ": unknown operator " + op.getKey());
      }
    }
    return problems;
  }
}
