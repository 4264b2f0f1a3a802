package dev.tavla.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.tavla.v1.AnalysisServiceGrpc;
import dev.tavla.v1.MatchServiceGrpc;
import dev.tavla.v1.RecordsServiceGrpc;
import dev.tavla.v1.RefereeServiceGrpc;
import dev.tavla.v1.RulesServiceGrpc;
import io.grpc.ServiceDescriptor;
import io.grpc.stub.AbstractStub;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance scenarios of clients/conformance, run through this client against a live
 * server (clients/conformance/README.md has the format and the matching rules).
 */
class ConformanceTest {
  private static TavlaClient client;

  @BeforeAll
  static void connect() throws IOException {
    client = TavlaClient.create(LiveServer.target());
  }

  @AfterAll
  static void close() throws InterruptedException {
    client.close();
  }

  static List<JsonObject> scenarios() throws IOException {
    Path dir = LiveServer.repoRoot().resolve("clients/conformance/scenarios");
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
    }
    List<JsonObject> all = new ArrayList<>();
    for (Path f : files) {
      JsonObject file = JsonParser.parseString(Files.readString(f, StandardCharsets.UTF_8)).getAsJsonObject();
      file.getAsJsonArray("scenarios").forEach(s -> all.add(s.getAsJsonObject()));
    }
    return all;
  }

  @TestFactory
  Stream<DynamicTest> conformance() throws IOException {
    List<JsonObject> all = scenarios();
    assertFalse(all.isEmpty(), "no scenarios");
    return all.stream()
        .map(sc -> DynamicTest.dynamicTest(sc.get("name").getAsString(), () -> run(sc)));
  }

  private static void run(JsonObject sc) throws Exception {
    String service = sc.get("service").getAsString();
    String rpc = sc.get("rpc").getAsString();
    // the scenario's service: its descriptor and the client's generated blocking stub of it
    ServiceDescriptor serviceDescriptor =
        Map.of(
                "RulesService", RulesServiceGrpc.getServiceDescriptor(),
                "MatchService", MatchServiceGrpc.getServiceDescriptor(),
                "RefereeService", RefereeServiceGrpc.getServiceDescriptor(),
                "RecordsService", RecordsServiceGrpc.getServiceDescriptor(),
                "AnalysisService", AnalysisServiceGrpc.getServiceDescriptor())
            .get(service);
    AbstractStub<?> serviceStub =
        Map.<String, AbstractStub<?>>of(
                "RulesService", client.rules(),
                "MatchService", client.match(),
                "RefereeService", client.referee(),
                "RecordsService", client.records(),
                "AnalysisService", client.analysis())
            .get(service);
    assertNotNull(serviceDescriptor, "no service " + service);
    MethodDescriptor<?, ?> descriptor =
        serviceDescriptor.getMethods().stream()
            .filter(m -> rpc.equals(m.getBareMethodName()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no RPC " + rpc + " in " + service));
    Message prototype =
        (Message) ((MethodDescriptor.PrototypeMarshaller<?>) descriptor.getRequestMarshaller()).getMessagePrototype();
    Message.Builder builder = prototype.newBuilderForType();
    JsonFormat.parser().merge(sc.get("request").toString(), builder);
    Message request = builder.build();
    // the RPC is called by name through the client's generated blocking stub of its service
    String javaName = Character.toLowerCase(rpc.charAt(0)) + rpc.substring(1);
    Object stub = serviceStub.withDeadlineAfter(60, TimeUnit.SECONDS);
    Method method = stub.getClass().getMethod(javaName, request.getClass());
    Message response;
    try {
      response = (Message) method.invoke(stub, request);
    } catch (InvocationTargetException e) {
      if (!(e.getCause() instanceof StatusRuntimeException)) {
        throw e;
      }
      if (!sc.has("error")) {
        fail("expected OK, got " + e.getCause());
      }
      checkError(sc.getAsJsonObject("error"), EngineError.from(e.getCause()));
      return;
    }
    if (sc.has("error")) {
      fail("expected " + sc.get("error") + ", got OK");
    }
    JsonElement actual =
        JsonParser.parseString(JsonFormat.printer().preservingProtoFieldNames().print(response));
    List<String> problems = Match.match(sc.get("response"), actual, "$");
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  private static void checkError(JsonObject want, EngineError err) {
    assertEquals(want.get("code").getAsString(), err.codeName(), err.message());
    if (want.has("reason")) {
      assertEquals(want.get("reason").getAsString(), err.reason(), err.message());
    }
    if (want.has("domain")) {
      assertEquals(want.get("domain").getAsString(), err.domain());
    }
    if (want.has("metadata")) {
      for (Map.Entry<String, JsonElement> e : want.getAsJsonObject("metadata").entrySet()) {
        assertEquals(e.getValue().getAsString(), err.metadata().get(e.getKey()), "metadata." + e.getKey());
      }
    }
    if (want.has("field")) {
      String field = want.get("field").getAsString();
      assertTrue(err.fields().contains(field), field + " not in " + err.fields() + " (" + err.message() + ")");
    }
  }

  @Test
  void matcherRules() {
    JsonElement actual =
        JsonParser.parseString(
            "{\"moves\": [{\"notation\": \"24/23 13/8\", \"result\": {\"position_id\": \"x\"}},"
                + " {\"notation\": \"13/7\"}], \"dice_used\": 2, \"win\": 0.30000000000000004}");
    Map<String, Boolean> cases =
        Map.ofEntries(
            Map.entry("{\"moves\": {\"$len\": 2, \"$contains\": [{\"notation\": \"13/7\"}]}}", true),
            Map.entry("{\"moves\": {\"$len\": 3}}", false),
            Map.entry("{\"moves\": {\"$contains\": [{\"notation\": \"8/2\"}]}}", false),
            Map.entry("{\"dice_used\": 2, \"forced\": false, \"result\": {\"$absent\": true}, \"win\": 0.3}", true),
            Map.entry("{\"dice_used\": 4}", false),
            Map.entry("{\"moves\": [{\"notation\": \"24/23 13/8\"}]}", false),
            Map.entry("{\"checker_moves\": [], \"notation\": \"\", \"on_roll\": \"SIDE_UNSPECIFIED\"}", true),
            Map.entry("{\"moves\": [{\"notation\": {\"$regex\": \"^24/\"}}, {\"notation\": {\"$regex\": \"7$\"}}]}", true),
            Map.entry("{\"moves\": {\"$contains\": [{\"notation\": {\"$regex\": \"^8/\"}}]}}", false));
    cases.forEach(
        (expected, ok) ->
            assertEquals(ok, Match.match(JsonParser.parseString(expected), actual, "$").isEmpty(), expected));
    assertNotNull(client);
  }
}
