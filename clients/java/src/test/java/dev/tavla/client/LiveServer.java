package dev.tavla.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * The live server of the tests: TAVLA_TARGET when set, else one started once per test JVM through
 * clients/conformance/live_server.py (TAVLA_SERVER_PYTHON, else the Makefile's .venv-test python)
 * and stopped at JVM exit by closing the script's stdin (it then sends the server SIGTERM).
 */
final class LiveServer {
  private static String target;

  private LiveServer() {}

  static Path repoRoot() {
    String root = System.getenv("TAVLA_REPO_ROOT"); // set by the pom for surefire
    return Paths.get(root != null ? root : "../..").toAbsolutePath().normalize();
  }

  static synchronized String target() throws IOException {
    if (target != null) {
      return target;
    }
    String given = System.getenv("TAVLA_TARGET");
    if (given != null && !given.isEmpty()) {
      return target = given;
    }
    String python = System.getenv("TAVLA_SERVER_PYTHON");
    if (python == null || python.isEmpty()) {
      python = repoRoot().resolve(".venv-test/bin/python").toString();
    }
    Process process =
        new ProcessBuilder(python, repoRoot().resolve("clients/conformance/live_server.py").toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("READY ")) {
      process.destroyForcibly();
      throw new IOException("no READY line from live_server.py: " + line);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    process.getOutputStream().close();
                    if (!process.waitFor(30, TimeUnit.SECONDS)) {
                      process.destroyForcibly();
                    }
                  } catch (IOException | InterruptedException e) {
                    process.destroyForcibly();
                  }
                }));
    return target = line.substring("READY ".length()).trim();
  }
}
