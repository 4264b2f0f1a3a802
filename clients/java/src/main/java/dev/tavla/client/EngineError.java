package dev.tavla.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.LocalizedMessage;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A failed call with the rich details the engine sends (AIP-193): the rule an illegal move breaks
 * ({@code google.rpc.ErrorInfo}) or the request fields that are malformed ({@code
 * google.rpc.BadRequest}).
 */
public final class EngineError {
  private final Status.Code code;
  private final String message;
  private final String reason;
  private final String domain;
  private final Map<String, String> metadata;
  private final List<String> fields;
  private final String localized;
  private final String locale;

  private EngineError(
      Status.Code code, String message, String reason, String domain, Map<String, String> metadata,
      List<String> fields, String localized, String locale) {
    this.code = code;
    this.message = message;
    this.reason = reason;
    this.domain = domain;
    this.metadata = metadata;
    this.fields = fields;
    this.localized = localized;
    this.locale = locale;
  }

  /** Read the status and details of a failed call (a {@link io.grpc.StatusRuntimeException}). */
  public static EngineError from(Throwable error) {
    Status status = Status.fromThrowable(error);
    String reason = "";
    String domain = "";
    Map<String, String> metadata = Collections.emptyMap();
    List<String> fields = new ArrayList<>();
    String localized = "";
    String locale = "";
    com.google.rpc.Status details = StatusProto.fromThrowable(error);
    if (details != null) {
      for (Any any : details.getDetailsList()) {
        try {
          if (any.is(ErrorInfo.class)) {
            ErrorInfo info = any.unpack(ErrorInfo.class);
            reason = info.getReason();
            domain = info.getDomain();
            metadata = info.getMetadataMap();
          } else if (any.is(BadRequest.class)) {
            for (BadRequest.FieldViolation v : any.unpack(BadRequest.class).getFieldViolationsList()) {
              fields.add(v.getField());
            }
          } else if (any.is(LocalizedMessage.class)) {
            LocalizedMessage text = any.unpack(LocalizedMessage.class);
            localized = text.getMessage();
            locale = text.getLocale();
          }
        } catch (InvalidProtocolBufferException e) {
          // a detail that does not parse is left out
        }
      }
    }
    String message = status.getDescription() == null ? "" : status.getDescription();
    return new EngineError(
        status.getCode(), message, reason, domain, metadata, Collections.unmodifiableList(fields),
        localized, locale);
  }

  /** The status code; INVALID_ARGUMENT for every client mistake. */
  public Status.Code code() {
    return code;
  }

  /** The canonical name of the code: "INVALID_ARGUMENT". */
  public String codeName() {
    return code.name();
  }

  /** The status message. */
  public String message() {
    return message;
  }

  /** ErrorInfo.reason: MUST_USE_BOTH_DICE, GAME_OVER, ...; "" for other errors. */
  public String reason() {
    return reason;
  }

  /** ErrorInfo.domain ("tavla.v1"); "" for other errors. */
  public String domain() {
    return domain;
  }

  /** ErrorInfo.metadata: "move", "dice", "winner". */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The request fields named by BadRequest field violations, e.g. ["dice"]. */
  public List<String> fields() {
    return fields;
  }

  /** LocalizedMessage.message: the error worded for players, in {@link #locale()}; "" if none. */
  public String localized() {
    return localized;
  }

  /** LocalizedMessage.locale: "en" or "tr" ({@link TavlaClient#withLocale}); "" if none. */
  public String locale() {
    return locale;
  }

  @Override
  public String toString() {
    return code.name() + (reason.isEmpty() ? "" : " [" + reason + "]") + ": " + message;
  }
}
