package dev.tavla.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * The rules of tavla and backgammon as a stateless service: every request carries the whole
 * state, so any replica answers any call.
 * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
 * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
 * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
 * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
 * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
 * "winner" for GAME_OVER.
 * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
 * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
 * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class EngineServiceGrpc {

  private EngineServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "tavla.v1.EngineService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.GetInitialPositionRequest,
      dev.tavla.v1.GetInitialPositionResponse> getGetInitialPositionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetInitialPosition",
      requestType = dev.tavla.v1.GetInitialPositionRequest.class,
      responseType = dev.tavla.v1.GetInitialPositionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.GetInitialPositionRequest,
      dev.tavla.v1.GetInitialPositionResponse> getGetInitialPositionMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.GetInitialPositionRequest, dev.tavla.v1.GetInitialPositionResponse> getGetInitialPositionMethod;
    if ((getGetInitialPositionMethod = EngineServiceGrpc.getGetInitialPositionMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getGetInitialPositionMethod = EngineServiceGrpc.getGetInitialPositionMethod) == null) {
          EngineServiceGrpc.getGetInitialPositionMethod = getGetInitialPositionMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.GetInitialPositionRequest, dev.tavla.v1.GetInitialPositionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetInitialPosition"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.GetInitialPositionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.GetInitialPositionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("GetInitialPosition"))
              .build();
        }
      }
    }
    return getGetInitialPositionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ListLegalMovesRequest,
      dev.tavla.v1.ListLegalMovesResponse> getListLegalMovesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListLegalMoves",
      requestType = dev.tavla.v1.ListLegalMovesRequest.class,
      responseType = dev.tavla.v1.ListLegalMovesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ListLegalMovesRequest,
      dev.tavla.v1.ListLegalMovesResponse> getListLegalMovesMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ListLegalMovesRequest, dev.tavla.v1.ListLegalMovesResponse> getListLegalMovesMethod;
    if ((getListLegalMovesMethod = EngineServiceGrpc.getListLegalMovesMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getListLegalMovesMethod = EngineServiceGrpc.getListLegalMovesMethod) == null) {
          EngineServiceGrpc.getListLegalMovesMethod = getListLegalMovesMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ListLegalMovesRequest, dev.tavla.v1.ListLegalMovesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListLegalMoves"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListLegalMovesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListLegalMovesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ListLegalMoves"))
              .build();
        }
      }
    }
    return getListLegalMovesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ApplyMoveRequest,
      dev.tavla.v1.ApplyMoveResponse> getApplyMoveMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ApplyMove",
      requestType = dev.tavla.v1.ApplyMoveRequest.class,
      responseType = dev.tavla.v1.ApplyMoveResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ApplyMoveRequest,
      dev.tavla.v1.ApplyMoveResponse> getApplyMoveMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ApplyMoveRequest, dev.tavla.v1.ApplyMoveResponse> getApplyMoveMethod;
    if ((getApplyMoveMethod = EngineServiceGrpc.getApplyMoveMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getApplyMoveMethod = EngineServiceGrpc.getApplyMoveMethod) == null) {
          EngineServiceGrpc.getApplyMoveMethod = getApplyMoveMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ApplyMoveRequest, dev.tavla.v1.ApplyMoveResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ApplyMove"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ApplyMoveRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ApplyMoveResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ApplyMove"))
              .build();
        }
      }
    }
    return getApplyMoveMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ScoreGameRequest,
      dev.tavla.v1.ScoreGameResponse> getScoreGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ScoreGame",
      requestType = dev.tavla.v1.ScoreGameRequest.class,
      responseType = dev.tavla.v1.ScoreGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ScoreGameRequest,
      dev.tavla.v1.ScoreGameResponse> getScoreGameMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ScoreGameRequest, dev.tavla.v1.ScoreGameResponse> getScoreGameMethod;
    if ((getScoreGameMethod = EngineServiceGrpc.getScoreGameMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getScoreGameMethod = EngineServiceGrpc.getScoreGameMethod) == null) {
          EngineServiceGrpc.getScoreGameMethod = getScoreGameMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ScoreGameRequest, dev.tavla.v1.ScoreGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ScoreGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ScoreGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ScoreGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ScoreGame"))
              .build();
        }
      }
    }
    return getScoreGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.BearOffRequest,
      dev.tavla.v1.BearOffResponse> getBearOffMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "BearOff",
      requestType = dev.tavla.v1.BearOffRequest.class,
      responseType = dev.tavla.v1.BearOffResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.BearOffRequest,
      dev.tavla.v1.BearOffResponse> getBearOffMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.BearOffRequest, dev.tavla.v1.BearOffResponse> getBearOffMethod;
    if ((getBearOffMethod = EngineServiceGrpc.getBearOffMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getBearOffMethod = EngineServiceGrpc.getBearOffMethod) == null) {
          EngineServiceGrpc.getBearOffMethod = getBearOffMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.BearOffRequest, dev.tavla.v1.BearOffResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "BearOff"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.BearOffRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.BearOffResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("BearOff"))
              .build();
        }
      }
    }
    return getBearOffMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ListLegalStepsRequest,
      dev.tavla.v1.ListLegalStepsResponse> getListLegalStepsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListLegalSteps",
      requestType = dev.tavla.v1.ListLegalStepsRequest.class,
      responseType = dev.tavla.v1.ListLegalStepsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ListLegalStepsRequest,
      dev.tavla.v1.ListLegalStepsResponse> getListLegalStepsMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ListLegalStepsRequest, dev.tavla.v1.ListLegalStepsResponse> getListLegalStepsMethod;
    if ((getListLegalStepsMethod = EngineServiceGrpc.getListLegalStepsMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getListLegalStepsMethod = EngineServiceGrpc.getListLegalStepsMethod) == null) {
          EngineServiceGrpc.getListLegalStepsMethod = getListLegalStepsMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ListLegalStepsRequest, dev.tavla.v1.ListLegalStepsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListLegalSteps"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListLegalStepsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListLegalStepsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ListLegalSteps"))
              .build();
        }
      }
    }
    return getListLegalStepsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.StartGameRequest,
      dev.tavla.v1.StartGameResponse> getStartGameMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "StartGame",
      requestType = dev.tavla.v1.StartGameRequest.class,
      responseType = dev.tavla.v1.StartGameResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.StartGameRequest,
      dev.tavla.v1.StartGameResponse> getStartGameMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.StartGameRequest, dev.tavla.v1.StartGameResponse> getStartGameMethod;
    if ((getStartGameMethod = EngineServiceGrpc.getStartGameMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getStartGameMethod = EngineServiceGrpc.getStartGameMethod) == null) {
          EngineServiceGrpc.getStartGameMethod = getStartGameMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.StartGameRequest, dev.tavla.v1.StartGameResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "StartGame"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.StartGameRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.StartGameResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("StartGame"))
              .build();
        }
      }
    }
    return getStartGameMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.CommitDiceRequest,
      dev.tavla.v1.CommitDiceResponse> getCommitDiceMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CommitDice",
      requestType = dev.tavla.v1.CommitDiceRequest.class,
      responseType = dev.tavla.v1.CommitDiceResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.CommitDiceRequest,
      dev.tavla.v1.CommitDiceResponse> getCommitDiceMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.CommitDiceRequest, dev.tavla.v1.CommitDiceResponse> getCommitDiceMethod;
    if ((getCommitDiceMethod = EngineServiceGrpc.getCommitDiceMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getCommitDiceMethod = EngineServiceGrpc.getCommitDiceMethod) == null) {
          EngineServiceGrpc.getCommitDiceMethod = getCommitDiceMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.CommitDiceRequest, dev.tavla.v1.CommitDiceResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CommitDice"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.CommitDiceRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.CommitDiceResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("CommitDice"))
              .build();
        }
      }
    }
    return getCommitDiceMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.RollDiceRequest,
      dev.tavla.v1.RollDiceResponse> getRollDiceMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RollDice",
      requestType = dev.tavla.v1.RollDiceRequest.class,
      responseType = dev.tavla.v1.RollDiceResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.RollDiceRequest,
      dev.tavla.v1.RollDiceResponse> getRollDiceMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.RollDiceRequest, dev.tavla.v1.RollDiceResponse> getRollDiceMethod;
    if ((getRollDiceMethod = EngineServiceGrpc.getRollDiceMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getRollDiceMethod = EngineServiceGrpc.getRollDiceMethod) == null) {
          EngineServiceGrpc.getRollDiceMethod = getRollDiceMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.RollDiceRequest, dev.tavla.v1.RollDiceResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RollDice"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.RollDiceRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.RollDiceResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("RollDice"))
              .build();
        }
      }
    }
    return getRollDiceMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.NameRollRequest,
      dev.tavla.v1.NameRollResponse> getNameRollMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "NameRoll",
      requestType = dev.tavla.v1.NameRollRequest.class,
      responseType = dev.tavla.v1.NameRollResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.NameRollRequest,
      dev.tavla.v1.NameRollResponse> getNameRollMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.NameRollRequest, dev.tavla.v1.NameRollResponse> getNameRollMethod;
    if ((getNameRollMethod = EngineServiceGrpc.getNameRollMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getNameRollMethod = EngineServiceGrpc.getNameRollMethod) == null) {
          EngineServiceGrpc.getNameRollMethod = getNameRollMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.NameRollRequest, dev.tavla.v1.NameRollResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "NameRoll"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.NameRollRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.NameRollResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("NameRoll"))
              .build();
        }
      }
    }
    return getNameRollMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ListCubeActionsRequest,
      dev.tavla.v1.ListCubeActionsResponse> getListCubeActionsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListCubeActions",
      requestType = dev.tavla.v1.ListCubeActionsRequest.class,
      responseType = dev.tavla.v1.ListCubeActionsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ListCubeActionsRequest,
      dev.tavla.v1.ListCubeActionsResponse> getListCubeActionsMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ListCubeActionsRequest, dev.tavla.v1.ListCubeActionsResponse> getListCubeActionsMethod;
    if ((getListCubeActionsMethod = EngineServiceGrpc.getListCubeActionsMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getListCubeActionsMethod = EngineServiceGrpc.getListCubeActionsMethod) == null) {
          EngineServiceGrpc.getListCubeActionsMethod = getListCubeActionsMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ListCubeActionsRequest, dev.tavla.v1.ListCubeActionsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListCubeActions"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListCubeActionsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListCubeActionsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ListCubeActions"))
              .build();
        }
      }
    }
    return getListCubeActionsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ApplyCubeActionRequest,
      dev.tavla.v1.ApplyCubeActionResponse> getApplyCubeActionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ApplyCubeAction",
      requestType = dev.tavla.v1.ApplyCubeActionRequest.class,
      responseType = dev.tavla.v1.ApplyCubeActionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ApplyCubeActionRequest,
      dev.tavla.v1.ApplyCubeActionResponse> getApplyCubeActionMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ApplyCubeActionRequest, dev.tavla.v1.ApplyCubeActionResponse> getApplyCubeActionMethod;
    if ((getApplyCubeActionMethod = EngineServiceGrpc.getApplyCubeActionMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getApplyCubeActionMethod = EngineServiceGrpc.getApplyCubeActionMethod) == null) {
          EngineServiceGrpc.getApplyCubeActionMethod = getApplyCubeActionMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ApplyCubeActionRequest, dev.tavla.v1.ApplyCubeActionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ApplyCubeAction"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ApplyCubeActionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ApplyCubeActionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ApplyCubeAction"))
              .build();
        }
      }
    }
    return getApplyCubeActionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.OfferResignationRequest,
      dev.tavla.v1.OfferResignationResponse> getOfferResignationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "OfferResignation",
      requestType = dev.tavla.v1.OfferResignationRequest.class,
      responseType = dev.tavla.v1.OfferResignationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.OfferResignationRequest,
      dev.tavla.v1.OfferResignationResponse> getOfferResignationMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.OfferResignationRequest, dev.tavla.v1.OfferResignationResponse> getOfferResignationMethod;
    if ((getOfferResignationMethod = EngineServiceGrpc.getOfferResignationMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getOfferResignationMethod = EngineServiceGrpc.getOfferResignationMethod) == null) {
          EngineServiceGrpc.getOfferResignationMethod = getOfferResignationMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.OfferResignationRequest, dev.tavla.v1.OfferResignationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "OfferResignation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.OfferResignationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.OfferResignationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("OfferResignation"))
              .build();
        }
      }
    }
    return getOfferResignationMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.AnswerResignationRequest,
      dev.tavla.v1.AnswerResignationResponse> getAnswerResignationMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AnswerResignation",
      requestType = dev.tavla.v1.AnswerResignationRequest.class,
      responseType = dev.tavla.v1.AnswerResignationResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.AnswerResignationRequest,
      dev.tavla.v1.AnswerResignationResponse> getAnswerResignationMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.AnswerResignationRequest, dev.tavla.v1.AnswerResignationResponse> getAnswerResignationMethod;
    if ((getAnswerResignationMethod = EngineServiceGrpc.getAnswerResignationMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getAnswerResignationMethod = EngineServiceGrpc.getAnswerResignationMethod) == null) {
          EngineServiceGrpc.getAnswerResignationMethod = getAnswerResignationMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.AnswerResignationRequest, dev.tavla.v1.AnswerResignationResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AnswerResignation"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.AnswerResignationRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.AnswerResignationResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("AnswerResignation"))
              .build();
        }
      }
    }
    return getAnswerResignationMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.UpdateMatchRequest,
      dev.tavla.v1.UpdateMatchResponse> getUpdateMatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "UpdateMatch",
      requestType = dev.tavla.v1.UpdateMatchRequest.class,
      responseType = dev.tavla.v1.UpdateMatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.UpdateMatchRequest,
      dev.tavla.v1.UpdateMatchResponse> getUpdateMatchMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.UpdateMatchRequest, dev.tavla.v1.UpdateMatchResponse> getUpdateMatchMethod;
    if ((getUpdateMatchMethod = EngineServiceGrpc.getUpdateMatchMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getUpdateMatchMethod = EngineServiceGrpc.getUpdateMatchMethod) == null) {
          EngineServiceGrpc.getUpdateMatchMethod = getUpdateMatchMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.UpdateMatchRequest, dev.tavla.v1.UpdateMatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "UpdateMatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.UpdateMatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.UpdateMatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("UpdateMatch"))
              .build();
        }
      }
    }
    return getUpdateMatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.AdvanceClockRequest,
      dev.tavla.v1.AdvanceClockResponse> getAdvanceClockMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AdvanceClock",
      requestType = dev.tavla.v1.AdvanceClockRequest.class,
      responseType = dev.tavla.v1.AdvanceClockResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.AdvanceClockRequest,
      dev.tavla.v1.AdvanceClockResponse> getAdvanceClockMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.AdvanceClockRequest, dev.tavla.v1.AdvanceClockResponse> getAdvanceClockMethod;
    if ((getAdvanceClockMethod = EngineServiceGrpc.getAdvanceClockMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getAdvanceClockMethod = EngineServiceGrpc.getAdvanceClockMethod) == null) {
          EngineServiceGrpc.getAdvanceClockMethod = getAdvanceClockMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.AdvanceClockRequest, dev.tavla.v1.AdvanceClockResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AdvanceClock"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.AdvanceClockRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.AdvanceClockResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("AdvanceClock"))
              .build();
        }
      }
    }
    return getAdvanceClockMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.GetRulesetRequest,
      dev.tavla.v1.GetRulesetResponse> getGetRulesetMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetRuleset",
      requestType = dev.tavla.v1.GetRulesetRequest.class,
      responseType = dev.tavla.v1.GetRulesetResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.GetRulesetRequest,
      dev.tavla.v1.GetRulesetResponse> getGetRulesetMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.GetRulesetRequest, dev.tavla.v1.GetRulesetResponse> getGetRulesetMethod;
    if ((getGetRulesetMethod = EngineServiceGrpc.getGetRulesetMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getGetRulesetMethod = EngineServiceGrpc.getGetRulesetMethod) == null) {
          EngineServiceGrpc.getGetRulesetMethod = getGetRulesetMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.GetRulesetRequest, dev.tavla.v1.GetRulesetResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetRuleset"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.GetRulesetRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.GetRulesetResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("GetRuleset"))
              .build();
        }
      }
    }
    return getGetRulesetMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ListRulesetsRequest,
      dev.tavla.v1.ListRulesetsResponse> getListRulesetsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListRulesets",
      requestType = dev.tavla.v1.ListRulesetsRequest.class,
      responseType = dev.tavla.v1.ListRulesetsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ListRulesetsRequest,
      dev.tavla.v1.ListRulesetsResponse> getListRulesetsMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ListRulesetsRequest, dev.tavla.v1.ListRulesetsResponse> getListRulesetsMethod;
    if ((getListRulesetsMethod = EngineServiceGrpc.getListRulesetsMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getListRulesetsMethod = EngineServiceGrpc.getListRulesetsMethod) == null) {
          EngineServiceGrpc.getListRulesetsMethod = getListRulesetsMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ListRulesetsRequest, dev.tavla.v1.ListRulesetsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListRulesets"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListRulesetsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ListRulesetsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ListRulesets"))
              .build();
        }
      }
    }
    return getListRulesetsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.tavla.v1.ValidateMatchRequest,
      dev.tavla.v1.ValidateMatchResponse> getValidateMatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ValidateMatch",
      requestType = dev.tavla.v1.ValidateMatchRequest.class,
      responseType = dev.tavla.v1.ValidateMatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<dev.tavla.v1.ValidateMatchRequest,
      dev.tavla.v1.ValidateMatchResponse> getValidateMatchMethod() {
    io.grpc.MethodDescriptor<dev.tavla.v1.ValidateMatchRequest, dev.tavla.v1.ValidateMatchResponse> getValidateMatchMethod;
    if ((getValidateMatchMethod = EngineServiceGrpc.getValidateMatchMethod) == null) {
      synchronized (EngineServiceGrpc.class) {
        if ((getValidateMatchMethod = EngineServiceGrpc.getValidateMatchMethod) == null) {
          EngineServiceGrpc.getValidateMatchMethod = getValidateMatchMethod =
              io.grpc.MethodDescriptor.<dev.tavla.v1.ValidateMatchRequest, dev.tavla.v1.ValidateMatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ValidateMatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ValidateMatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.tavla.v1.ValidateMatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new EngineServiceMethodDescriptorSupplier("ValidateMatch"))
              .build();
        }
      }
    }
    return getValidateMatchMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static EngineServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EngineServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EngineServiceStub>() {
        @java.lang.Override
        public EngineServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EngineServiceStub(channel, callOptions);
        }
      };
    return EngineServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static EngineServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EngineServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EngineServiceBlockingV2Stub>() {
        @java.lang.Override
        public EngineServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EngineServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return EngineServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static EngineServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EngineServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EngineServiceBlockingStub>() {
        @java.lang.Override
        public EngineServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EngineServiceBlockingStub(channel, callOptions);
        }
      };
    return EngineServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static EngineServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<EngineServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<EngineServiceFutureStub>() {
        @java.lang.Override
        public EngineServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new EngineServiceFutureStub(channel, callOptions);
        }
      };
    return EngineServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * The rules of tavla and backgammon as a stateless service: every request carries the whole
   * state, so any replica answers any call.
   * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
   * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
   * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
   * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
   * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
   * "winner" for GAME_OVER.
   * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
   * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
   * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * The starting position (RULES.md R2) with the given side on roll.
     * </pre>
     */
    default void getInitialPosition(dev.tavla.v1.GetInitialPositionRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.GetInitialPositionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetInitialPositionMethod(), responseObserver);
    }

    /**
     * <pre>
     * Every legal move for a position and roll, one per distinct resulting position (R4-R14).
     * </pre>
     */
    default void listLegalMoves(dev.tavla.v1.ListLegalMovesRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListLegalMovesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListLegalMovesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Validate a move and return the position after it, and the result if the game is over.
     * </pre>
     */
    default void applyMove(dev.tavla.v1.ApplyMoveRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ApplyMoveResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getApplyMoveMethod(), responseObserver);
    }

    /**
     * <pre>
     * Score a finished game (R15-R17).
     * </pre>
     */
    default void scoreGame(dev.tavla.v1.ScoreGameRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ScoreGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getScoreGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * Bear-off figures of both sides, race odds when neither side has contact, and with dice the
     * legal moves ranked by the exact bear-off database (R11-R14).
     * </pre>
     */
    default void bearOff(dev.tavla.v1.BearOffRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.BearOffResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getBearOffMethod(), responseObserver);
    }

    /**
     * <pre>
     * Checker-by-checker play: the legal next single-die steps after the steps made so far, and
     * whether those already form a complete legal move (R4-R14).
     * </pre>
     */
    default void listLegalSteps(dev.tavla.v1.ListLegalStepsRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListLegalStepsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListLegalStepsMethod(), responseObserver);
    }

    /**
     * <pre>
     * Who starts a game and the dice of its first turn, with every roll-off throw (R3).
     * </pre>
     */
    default void startGame(dev.tavla.v1.StartGameRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.StartGameResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getStartGameMethod(), responseObserver);
    }

    /**
     * <pre>
     * A commitment to a secret server seed, to roll verifiable dice with later (R22, docs/dice.md).
     * </pre>
     */
    default void commitDice(dev.tavla.v1.CommitDiceRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.CommitDiceResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCommitDiceMethod(), responseObserver);
    }

    /**
     * <pre>
     * Two dice from a cryptographically secure source, or from a commitment with its proof (R22).
     * </pre>
     */
    default void rollDice(dev.tavla.v1.RollDiceRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.RollDiceResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRollDiceMethod(), responseObserver);
    }

    /**
     * <pre>
     * The Turkish name of a roll (R26).
     * </pre>
     */
    default void nameRoll(dev.tavla.v1.NameRollRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.NameRollResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getNameRollMethod(), responseObserver);
    }

    /**
     * <pre>
     * The cube actions a side may take now (R19-R21).
     * </pre>
     */
    default void listCubeActions(dev.tavla.v1.ListCubeActionsRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListCubeActionsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListCubeActionsMethod(), responseObserver);
    }

    /**
     * <pre>
     * The match after a cube action; a drop ends the game (R19).
     * </pre>
     */
    default void applyCubeAction(dev.tavla.v1.ApplyCubeActionRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ApplyCubeActionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getApplyCubeActionMethod(), responseObserver);
    }

    /**
     * <pre>
     * What a resignation offer pays if the other side accepts it.
     * </pre>
     */
    default void offerResignation(dev.tavla.v1.OfferResignationRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.OfferResignationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getOfferResignationMethod(), responseObserver);
    }

    /**
     * <pre>
     * Accept a resignation offer, ending the game with its kind, or reject it.
     * </pre>
     */
    default void answerResignation(dev.tavla.v1.AnswerResignationRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.AnswerResignationResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAnswerResignationMethod(), responseObserver);
    }

    /**
     * <pre>
     * The match after a finished game: score, Crawford game, match winner, next starter (R18-R21).
     * </pre>
     */
    default void updateMatch(dev.tavla.v1.UpdateMatchRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.UpdateMatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getUpdateMatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * A stateless clock: the state after a move, a disconnect or a break, or a forfeit (R23-R25).
     * </pre>
     */
    default void advanceClock(dev.tavla.v1.AdvanceClockRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.AdvanceClockResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAdvanceClockMethod(), responseObserver);
    }

    /**
     * <pre>
     * The options of a ruleset with its preset and overrides resolved.
     * </pre>
     */
    default void getRuleset(dev.tavla.v1.GetRulesetRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.GetRulesetResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetRulesetMethod(), responseObserver);
    }

    /**
     * <pre>
     * The named rulesets (presets) with their options.
     * </pre>
     */
    default void listRulesets(dev.tavla.v1.ListRulesetsRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListRulesetsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListRulesetsMethod(), responseObserver);
    }

    /**
     * <pre>
     * Checks whole match records (.mat, .sgf, or a stream of plays) streamed in pieces: one
     * verdict per game as it completes, then one per record (docs/match-files.md). The server
     * holds one game at a time, so an archive of any size can be piped through.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<dev.tavla.v1.ValidateMatchRequest> validateMatch(
        io.grpc.stub.StreamObserver<dev.tavla.v1.ValidateMatchResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getValidateMatchMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service EngineService.
   * <pre>
   * The rules of tavla and backgammon as a stateless service: every request carries the whole
   * state, so any replica answers any call.
   * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
   * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
   * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
   * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
   * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
   * "winner" for GAME_OVER.
   * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
   * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
   * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
   * </pre>
   */
  public static abstract class EngineServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return EngineServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service EngineService.
   * <pre>
   * The rules of tavla and backgammon as a stateless service: every request carries the whole
   * state, so any replica answers any call.
   * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
   * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
   * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
   * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
   * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
   * "winner" for GAME_OVER.
   * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
   * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
   * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
   * </pre>
   */
  public static final class EngineServiceStub
      extends io.grpc.stub.AbstractAsyncStub<EngineServiceStub> {
    private EngineServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EngineServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EngineServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * The starting position (RULES.md R2) with the given side on roll.
     * </pre>
     */
    public void getInitialPosition(dev.tavla.v1.GetInitialPositionRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.GetInitialPositionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetInitialPositionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Every legal move for a position and roll, one per distinct resulting position (R4-R14).
     * </pre>
     */
    public void listLegalMoves(dev.tavla.v1.ListLegalMovesRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListLegalMovesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListLegalMovesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Validate a move and return the position after it, and the result if the game is over.
     * </pre>
     */
    public void applyMove(dev.tavla.v1.ApplyMoveRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ApplyMoveResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getApplyMoveMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Score a finished game (R15-R17).
     * </pre>
     */
    public void scoreGame(dev.tavla.v1.ScoreGameRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ScoreGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getScoreGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Bear-off figures of both sides, race odds when neither side has contact, and with dice the
     * legal moves ranked by the exact bear-off database (R11-R14).
     * </pre>
     */
    public void bearOff(dev.tavla.v1.BearOffRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.BearOffResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getBearOffMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Checker-by-checker play: the legal next single-die steps after the steps made so far, and
     * whether those already form a complete legal move (R4-R14).
     * </pre>
     */
    public void listLegalSteps(dev.tavla.v1.ListLegalStepsRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListLegalStepsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListLegalStepsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Who starts a game and the dice of its first turn, with every roll-off throw (R3).
     * </pre>
     */
    public void startGame(dev.tavla.v1.StartGameRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.StartGameResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getStartGameMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A commitment to a secret server seed, to roll verifiable dice with later (R22, docs/dice.md).
     * </pre>
     */
    public void commitDice(dev.tavla.v1.CommitDiceRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.CommitDiceResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCommitDiceMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Two dice from a cryptographically secure source, or from a commitment with its proof (R22).
     * </pre>
     */
    public void rollDice(dev.tavla.v1.RollDiceRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.RollDiceResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRollDiceMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The Turkish name of a roll (R26).
     * </pre>
     */
    public void nameRoll(dev.tavla.v1.NameRollRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.NameRollResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getNameRollMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The cube actions a side may take now (R19-R21).
     * </pre>
     */
    public void listCubeActions(dev.tavla.v1.ListCubeActionsRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListCubeActionsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListCubeActionsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The match after a cube action; a drop ends the game (R19).
     * </pre>
     */
    public void applyCubeAction(dev.tavla.v1.ApplyCubeActionRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ApplyCubeActionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getApplyCubeActionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * What a resignation offer pays if the other side accepts it.
     * </pre>
     */
    public void offerResignation(dev.tavla.v1.OfferResignationRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.OfferResignationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getOfferResignationMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Accept a resignation offer, ending the game with its kind, or reject it.
     * </pre>
     */
    public void answerResignation(dev.tavla.v1.AnswerResignationRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.AnswerResignationResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAnswerResignationMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The match after a finished game: score, Crawford game, match winner, next starter (R18-R21).
     * </pre>
     */
    public void updateMatch(dev.tavla.v1.UpdateMatchRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.UpdateMatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getUpdateMatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A stateless clock: the state after a move, a disconnect or a break, or a forfeit (R23-R25).
     * </pre>
     */
    public void advanceClock(dev.tavla.v1.AdvanceClockRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.AdvanceClockResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAdvanceClockMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The options of a ruleset with its preset and overrides resolved.
     * </pre>
     */
    public void getRuleset(dev.tavla.v1.GetRulesetRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.GetRulesetResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetRulesetMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The named rulesets (presets) with their options.
     * </pre>
     */
    public void listRulesets(dev.tavla.v1.ListRulesetsRequest request,
        io.grpc.stub.StreamObserver<dev.tavla.v1.ListRulesetsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListRulesetsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Checks whole match records (.mat, .sgf, or a stream of plays) streamed in pieces: one
     * verdict per game as it completes, then one per record (docs/match-files.md). The server
     * holds one game at a time, so an archive of any size can be piped through.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.tavla.v1.ValidateMatchRequest> validateMatch(
        io.grpc.stub.StreamObserver<dev.tavla.v1.ValidateMatchResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getValidateMatchMethod(), getCallOptions()), responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service EngineService.
   * <pre>
   * The rules of tavla and backgammon as a stateless service: every request carries the whole
   * state, so any replica answers any call.
   * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
   * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
   * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
   * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
   * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
   * "winner" for GAME_OVER.
   * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
   * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
   * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
   * </pre>
   */
  public static final class EngineServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<EngineServiceBlockingV2Stub> {
    private EngineServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EngineServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EngineServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * The starting position (RULES.md R2) with the given side on roll.
     * </pre>
     */
    public dev.tavla.v1.GetInitialPositionResponse getInitialPosition(dev.tavla.v1.GetInitialPositionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetInitialPositionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Every legal move for a position and roll, one per distinct resulting position (R4-R14).
     * </pre>
     */
    public dev.tavla.v1.ListLegalMovesResponse listLegalMoves(dev.tavla.v1.ListLegalMovesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListLegalMovesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Validate a move and return the position after it, and the result if the game is over.
     * </pre>
     */
    public dev.tavla.v1.ApplyMoveResponse applyMove(dev.tavla.v1.ApplyMoveRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getApplyMoveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Score a finished game (R15-R17).
     * </pre>
     */
    public dev.tavla.v1.ScoreGameResponse scoreGame(dev.tavla.v1.ScoreGameRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getScoreGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Bear-off figures of both sides, race odds when neither side has contact, and with dice the
     * legal moves ranked by the exact bear-off database (R11-R14).
     * </pre>
     */
    public dev.tavla.v1.BearOffResponse bearOff(dev.tavla.v1.BearOffRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getBearOffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Checker-by-checker play: the legal next single-die steps after the steps made so far, and
     * whether those already form a complete legal move (R4-R14).
     * </pre>
     */
    public dev.tavla.v1.ListLegalStepsResponse listLegalSteps(dev.tavla.v1.ListLegalStepsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListLegalStepsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Who starts a game and the dice of its first turn, with every roll-off throw (R3).
     * </pre>
     */
    public dev.tavla.v1.StartGameResponse startGame(dev.tavla.v1.StartGameRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getStartGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A commitment to a secret server seed, to roll verifiable dice with later (R22, docs/dice.md).
     * </pre>
     */
    public dev.tavla.v1.CommitDiceResponse commitDice(dev.tavla.v1.CommitDiceRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCommitDiceMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Two dice from a cryptographically secure source, or from a commitment with its proof (R22).
     * </pre>
     */
    public dev.tavla.v1.RollDiceResponse rollDice(dev.tavla.v1.RollDiceRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRollDiceMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The Turkish name of a roll (R26).
     * </pre>
     */
    public dev.tavla.v1.NameRollResponse nameRoll(dev.tavla.v1.NameRollRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getNameRollMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The cube actions a side may take now (R19-R21).
     * </pre>
     */
    public dev.tavla.v1.ListCubeActionsResponse listCubeActions(dev.tavla.v1.ListCubeActionsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListCubeActionsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The match after a cube action; a drop ends the game (R19).
     * </pre>
     */
    public dev.tavla.v1.ApplyCubeActionResponse applyCubeAction(dev.tavla.v1.ApplyCubeActionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getApplyCubeActionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * What a resignation offer pays if the other side accepts it.
     * </pre>
     */
    public dev.tavla.v1.OfferResignationResponse offerResignation(dev.tavla.v1.OfferResignationRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getOfferResignationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Accept a resignation offer, ending the game with its kind, or reject it.
     * </pre>
     */
    public dev.tavla.v1.AnswerResignationResponse answerResignation(dev.tavla.v1.AnswerResignationRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAnswerResignationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The match after a finished game: score, Crawford game, match winner, next starter (R18-R21).
     * </pre>
     */
    public dev.tavla.v1.UpdateMatchResponse updateMatch(dev.tavla.v1.UpdateMatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getUpdateMatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A stateless clock: the state after a move, a disconnect or a break, or a forfeit (R23-R25).
     * </pre>
     */
    public dev.tavla.v1.AdvanceClockResponse advanceClock(dev.tavla.v1.AdvanceClockRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAdvanceClockMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The options of a ruleset with its preset and overrides resolved.
     * </pre>
     */
    public dev.tavla.v1.GetRulesetResponse getRuleset(dev.tavla.v1.GetRulesetRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetRulesetMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The named rulesets (presets) with their options.
     * </pre>
     */
    public dev.tavla.v1.ListRulesetsResponse listRulesets(dev.tavla.v1.ListRulesetsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListRulesetsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Checks whole match records (.mat, .sgf, or a stream of plays) streamed in pieces: one
     * verdict per game as it completes, then one per record (docs/match-files.md). The server
     * holds one game at a time, so an archive of any size can be piped through.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<dev.tavla.v1.ValidateMatchRequest, dev.tavla.v1.ValidateMatchResponse>
        validateMatch() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getValidateMatchMethod(), getCallOptions());
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service EngineService.
   * <pre>
   * The rules of tavla and backgammon as a stateless service: every request carries the whole
   * state, so any replica answers any call.
   * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
   * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
   * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
   * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
   * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
   * "winner" for GAME_OVER.
   * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
   * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
   * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
   * </pre>
   */
  public static final class EngineServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<EngineServiceBlockingStub> {
    private EngineServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EngineServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EngineServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * The starting position (RULES.md R2) with the given side on roll.
     * </pre>
     */
    public dev.tavla.v1.GetInitialPositionResponse getInitialPosition(dev.tavla.v1.GetInitialPositionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetInitialPositionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Every legal move for a position and roll, one per distinct resulting position (R4-R14).
     * </pre>
     */
    public dev.tavla.v1.ListLegalMovesResponse listLegalMoves(dev.tavla.v1.ListLegalMovesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListLegalMovesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Validate a move and return the position after it, and the result if the game is over.
     * </pre>
     */
    public dev.tavla.v1.ApplyMoveResponse applyMove(dev.tavla.v1.ApplyMoveRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getApplyMoveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Score a finished game (R15-R17).
     * </pre>
     */
    public dev.tavla.v1.ScoreGameResponse scoreGame(dev.tavla.v1.ScoreGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getScoreGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Bear-off figures of both sides, race odds when neither side has contact, and with dice the
     * legal moves ranked by the exact bear-off database (R11-R14).
     * </pre>
     */
    public dev.tavla.v1.BearOffResponse bearOff(dev.tavla.v1.BearOffRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getBearOffMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Checker-by-checker play: the legal next single-die steps after the steps made so far, and
     * whether those already form a complete legal move (R4-R14).
     * </pre>
     */
    public dev.tavla.v1.ListLegalStepsResponse listLegalSteps(dev.tavla.v1.ListLegalStepsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListLegalStepsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Who starts a game and the dice of its first turn, with every roll-off throw (R3).
     * </pre>
     */
    public dev.tavla.v1.StartGameResponse startGame(dev.tavla.v1.StartGameRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getStartGameMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A commitment to a secret server seed, to roll verifiable dice with later (R22, docs/dice.md).
     * </pre>
     */
    public dev.tavla.v1.CommitDiceResponse commitDice(dev.tavla.v1.CommitDiceRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCommitDiceMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Two dice from a cryptographically secure source, or from a commitment with its proof (R22).
     * </pre>
     */
    public dev.tavla.v1.RollDiceResponse rollDice(dev.tavla.v1.RollDiceRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRollDiceMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The Turkish name of a roll (R26).
     * </pre>
     */
    public dev.tavla.v1.NameRollResponse nameRoll(dev.tavla.v1.NameRollRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getNameRollMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The cube actions a side may take now (R19-R21).
     * </pre>
     */
    public dev.tavla.v1.ListCubeActionsResponse listCubeActions(dev.tavla.v1.ListCubeActionsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListCubeActionsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The match after a cube action; a drop ends the game (R19).
     * </pre>
     */
    public dev.tavla.v1.ApplyCubeActionResponse applyCubeAction(dev.tavla.v1.ApplyCubeActionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getApplyCubeActionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * What a resignation offer pays if the other side accepts it.
     * </pre>
     */
    public dev.tavla.v1.OfferResignationResponse offerResignation(dev.tavla.v1.OfferResignationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getOfferResignationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Accept a resignation offer, ending the game with its kind, or reject it.
     * </pre>
     */
    public dev.tavla.v1.AnswerResignationResponse answerResignation(dev.tavla.v1.AnswerResignationRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAnswerResignationMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The match after a finished game: score, Crawford game, match winner, next starter (R18-R21).
     * </pre>
     */
    public dev.tavla.v1.UpdateMatchResponse updateMatch(dev.tavla.v1.UpdateMatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getUpdateMatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A stateless clock: the state after a move, a disconnect or a break, or a forfeit (R23-R25).
     * </pre>
     */
    public dev.tavla.v1.AdvanceClockResponse advanceClock(dev.tavla.v1.AdvanceClockRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAdvanceClockMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The options of a ruleset with its preset and overrides resolved.
     * </pre>
     */
    public dev.tavla.v1.GetRulesetResponse getRuleset(dev.tavla.v1.GetRulesetRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetRulesetMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The named rulesets (presets) with their options.
     * </pre>
     */
    public dev.tavla.v1.ListRulesetsResponse listRulesets(dev.tavla.v1.ListRulesetsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListRulesetsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service EngineService.
   * <pre>
   * The rules of tavla and backgammon as a stateless service: every request carries the whole
   * state, so any replica answers any call.
   * Errors: INVALID_ARGUMENT with google.rpc.BadRequest field violations for malformed input, and
   * with google.rpc.ErrorInfo (domain "tavla.v1") whose reason names the rule an illegal move
   * breaks: MUST_ENTER_FROM_BAR, POINT_BLOCKED, MUST_USE_BOTH_DICE, MUST_USE_LARGER_DIE,
   * MUST_USE_MORE_DICE, BEAR_OFF_NOT_ALLOWED, NO_CHECKER_THERE, WRONG_DICE, AMBIGUOUS_MOVE,
   * GAME_OVER. ErrorInfo metadata: "move" (the move as given) and "dice" for illegal moves,
   * "winner" for GAME_OVER.
   * Match play (docs/match-play.md) adds the ErrorInfo reasons CUBE_DISABLED, CRAWFORD_GAME,
   * CUBE_OWNED_BY_OPPONENT, CUBE_AT_LIMIT, DEAD_CUBE, DOUBLE_PENDING, NO_DOUBLE_PENDING,
   * NOT_YOUR_DECISION, BEAVER_NOT_ALLOWED, MATCH_OVER and BREAK_ALREADY_TAKEN.
   * </pre>
   */
  public static final class EngineServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<EngineServiceFutureStub> {
    private EngineServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected EngineServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new EngineServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * The starting position (RULES.md R2) with the given side on roll.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.GetInitialPositionResponse> getInitialPosition(
        dev.tavla.v1.GetInitialPositionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetInitialPositionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Every legal move for a position and roll, one per distinct resulting position (R4-R14).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ListLegalMovesResponse> listLegalMoves(
        dev.tavla.v1.ListLegalMovesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListLegalMovesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Validate a move and return the position after it, and the result if the game is over.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ApplyMoveResponse> applyMove(
        dev.tavla.v1.ApplyMoveRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getApplyMoveMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Score a finished game (R15-R17).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ScoreGameResponse> scoreGame(
        dev.tavla.v1.ScoreGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getScoreGameMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Bear-off figures of both sides, race odds when neither side has contact, and with dice the
     * legal moves ranked by the exact bear-off database (R11-R14).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.BearOffResponse> bearOff(
        dev.tavla.v1.BearOffRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getBearOffMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Checker-by-checker play: the legal next single-die steps after the steps made so far, and
     * whether those already form a complete legal move (R4-R14).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ListLegalStepsResponse> listLegalSteps(
        dev.tavla.v1.ListLegalStepsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListLegalStepsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Who starts a game and the dice of its first turn, with every roll-off throw (R3).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.StartGameResponse> startGame(
        dev.tavla.v1.StartGameRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getStartGameMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * A commitment to a secret server seed, to roll verifiable dice with later (R22, docs/dice.md).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.CommitDiceResponse> commitDice(
        dev.tavla.v1.CommitDiceRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCommitDiceMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Two dice from a cryptographically secure source, or from a commitment with its proof (R22).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.RollDiceResponse> rollDice(
        dev.tavla.v1.RollDiceRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRollDiceMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The Turkish name of a roll (R26).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.NameRollResponse> nameRoll(
        dev.tavla.v1.NameRollRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getNameRollMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The cube actions a side may take now (R19-R21).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ListCubeActionsResponse> listCubeActions(
        dev.tavla.v1.ListCubeActionsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListCubeActionsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The match after a cube action; a drop ends the game (R19).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ApplyCubeActionResponse> applyCubeAction(
        dev.tavla.v1.ApplyCubeActionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getApplyCubeActionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * What a resignation offer pays if the other side accepts it.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.OfferResignationResponse> offerResignation(
        dev.tavla.v1.OfferResignationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getOfferResignationMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Accept a resignation offer, ending the game with its kind, or reject it.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.AnswerResignationResponse> answerResignation(
        dev.tavla.v1.AnswerResignationRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAnswerResignationMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The match after a finished game: score, Crawford game, match winner, next starter (R18-R21).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.UpdateMatchResponse> updateMatch(
        dev.tavla.v1.UpdateMatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getUpdateMatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * A stateless clock: the state after a move, a disconnect or a break, or a forfeit (R23-R25).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.AdvanceClockResponse> advanceClock(
        dev.tavla.v1.AdvanceClockRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAdvanceClockMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The options of a ruleset with its preset and overrides resolved.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.GetRulesetResponse> getRuleset(
        dev.tavla.v1.GetRulesetRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetRulesetMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The named rulesets (presets) with their options.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.tavla.v1.ListRulesetsResponse> listRulesets(
        dev.tavla.v1.ListRulesetsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListRulesetsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_GET_INITIAL_POSITION = 0;
  private static final int METHODID_LIST_LEGAL_MOVES = 1;
  private static final int METHODID_APPLY_MOVE = 2;
  private static final int METHODID_SCORE_GAME = 3;
  private static final int METHODID_BEAR_OFF = 4;
  private static final int METHODID_LIST_LEGAL_STEPS = 5;
  private static final int METHODID_START_GAME = 6;
  private static final int METHODID_COMMIT_DICE = 7;
  private static final int METHODID_ROLL_DICE = 8;
  private static final int METHODID_NAME_ROLL = 9;
  private static final int METHODID_LIST_CUBE_ACTIONS = 10;
  private static final int METHODID_APPLY_CUBE_ACTION = 11;
  private static final int METHODID_OFFER_RESIGNATION = 12;
  private static final int METHODID_ANSWER_RESIGNATION = 13;
  private static final int METHODID_UPDATE_MATCH = 14;
  private static final int METHODID_ADVANCE_CLOCK = 15;
  private static final int METHODID_GET_RULESET = 16;
  private static final int METHODID_LIST_RULESETS = 17;
  private static final int METHODID_VALIDATE_MATCH = 18;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_GET_INITIAL_POSITION:
          serviceImpl.getInitialPosition((dev.tavla.v1.GetInitialPositionRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.GetInitialPositionResponse>) responseObserver);
          break;
        case METHODID_LIST_LEGAL_MOVES:
          serviceImpl.listLegalMoves((dev.tavla.v1.ListLegalMovesRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ListLegalMovesResponse>) responseObserver);
          break;
        case METHODID_APPLY_MOVE:
          serviceImpl.applyMove((dev.tavla.v1.ApplyMoveRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ApplyMoveResponse>) responseObserver);
          break;
        case METHODID_SCORE_GAME:
          serviceImpl.scoreGame((dev.tavla.v1.ScoreGameRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ScoreGameResponse>) responseObserver);
          break;
        case METHODID_BEAR_OFF:
          serviceImpl.bearOff((dev.tavla.v1.BearOffRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.BearOffResponse>) responseObserver);
          break;
        case METHODID_LIST_LEGAL_STEPS:
          serviceImpl.listLegalSteps((dev.tavla.v1.ListLegalStepsRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ListLegalStepsResponse>) responseObserver);
          break;
        case METHODID_START_GAME:
          serviceImpl.startGame((dev.tavla.v1.StartGameRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.StartGameResponse>) responseObserver);
          break;
        case METHODID_COMMIT_DICE:
          serviceImpl.commitDice((dev.tavla.v1.CommitDiceRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.CommitDiceResponse>) responseObserver);
          break;
        case METHODID_ROLL_DICE:
          serviceImpl.rollDice((dev.tavla.v1.RollDiceRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.RollDiceResponse>) responseObserver);
          break;
        case METHODID_NAME_ROLL:
          serviceImpl.nameRoll((dev.tavla.v1.NameRollRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.NameRollResponse>) responseObserver);
          break;
        case METHODID_LIST_CUBE_ACTIONS:
          serviceImpl.listCubeActions((dev.tavla.v1.ListCubeActionsRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ListCubeActionsResponse>) responseObserver);
          break;
        case METHODID_APPLY_CUBE_ACTION:
          serviceImpl.applyCubeAction((dev.tavla.v1.ApplyCubeActionRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ApplyCubeActionResponse>) responseObserver);
          break;
        case METHODID_OFFER_RESIGNATION:
          serviceImpl.offerResignation((dev.tavla.v1.OfferResignationRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.OfferResignationResponse>) responseObserver);
          break;
        case METHODID_ANSWER_RESIGNATION:
          serviceImpl.answerResignation((dev.tavla.v1.AnswerResignationRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.AnswerResignationResponse>) responseObserver);
          break;
        case METHODID_UPDATE_MATCH:
          serviceImpl.updateMatch((dev.tavla.v1.UpdateMatchRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.UpdateMatchResponse>) responseObserver);
          break;
        case METHODID_ADVANCE_CLOCK:
          serviceImpl.advanceClock((dev.tavla.v1.AdvanceClockRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.AdvanceClockResponse>) responseObserver);
          break;
        case METHODID_GET_RULESET:
          serviceImpl.getRuleset((dev.tavla.v1.GetRulesetRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.GetRulesetResponse>) responseObserver);
          break;
        case METHODID_LIST_RULESETS:
          serviceImpl.listRulesets((dev.tavla.v1.ListRulesetsRequest) request,
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ListRulesetsResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_VALIDATE_MATCH:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.validateMatch(
              (io.grpc.stub.StreamObserver<dev.tavla.v1.ValidateMatchResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getGetInitialPositionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.GetInitialPositionRequest,
              dev.tavla.v1.GetInitialPositionResponse>(
                service, METHODID_GET_INITIAL_POSITION)))
        .addMethod(
          getListLegalMovesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ListLegalMovesRequest,
              dev.tavla.v1.ListLegalMovesResponse>(
                service, METHODID_LIST_LEGAL_MOVES)))
        .addMethod(
          getApplyMoveMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ApplyMoveRequest,
              dev.tavla.v1.ApplyMoveResponse>(
                service, METHODID_APPLY_MOVE)))
        .addMethod(
          getScoreGameMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ScoreGameRequest,
              dev.tavla.v1.ScoreGameResponse>(
                service, METHODID_SCORE_GAME)))
        .addMethod(
          getBearOffMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.BearOffRequest,
              dev.tavla.v1.BearOffResponse>(
                service, METHODID_BEAR_OFF)))
        .addMethod(
          getListLegalStepsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ListLegalStepsRequest,
              dev.tavla.v1.ListLegalStepsResponse>(
                service, METHODID_LIST_LEGAL_STEPS)))
        .addMethod(
          getStartGameMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.StartGameRequest,
              dev.tavla.v1.StartGameResponse>(
                service, METHODID_START_GAME)))
        .addMethod(
          getCommitDiceMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.CommitDiceRequest,
              dev.tavla.v1.CommitDiceResponse>(
                service, METHODID_COMMIT_DICE)))
        .addMethod(
          getRollDiceMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.RollDiceRequest,
              dev.tavla.v1.RollDiceResponse>(
                service, METHODID_ROLL_DICE)))
        .addMethod(
          getNameRollMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.NameRollRequest,
              dev.tavla.v1.NameRollResponse>(
                service, METHODID_NAME_ROLL)))
        .addMethod(
          getListCubeActionsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ListCubeActionsRequest,
              dev.tavla.v1.ListCubeActionsResponse>(
                service, METHODID_LIST_CUBE_ACTIONS)))
        .addMethod(
          getApplyCubeActionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ApplyCubeActionRequest,
              dev.tavla.v1.ApplyCubeActionResponse>(
                service, METHODID_APPLY_CUBE_ACTION)))
        .addMethod(
          getOfferResignationMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.OfferResignationRequest,
              dev.tavla.v1.OfferResignationResponse>(
                service, METHODID_OFFER_RESIGNATION)))
        .addMethod(
          getAnswerResignationMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.AnswerResignationRequest,
              dev.tavla.v1.AnswerResignationResponse>(
                service, METHODID_ANSWER_RESIGNATION)))
        .addMethod(
          getUpdateMatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.UpdateMatchRequest,
              dev.tavla.v1.UpdateMatchResponse>(
                service, METHODID_UPDATE_MATCH)))
        .addMethod(
          getAdvanceClockMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.AdvanceClockRequest,
              dev.tavla.v1.AdvanceClockResponse>(
                service, METHODID_ADVANCE_CLOCK)))
        .addMethod(
          getGetRulesetMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.GetRulesetRequest,
              dev.tavla.v1.GetRulesetResponse>(
                service, METHODID_GET_RULESET)))
        .addMethod(
          getListRulesetsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.tavla.v1.ListRulesetsRequest,
              dev.tavla.v1.ListRulesetsResponse>(
                service, METHODID_LIST_RULESETS)))
        .addMethod(
          getValidateMatchMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              dev.tavla.v1.ValidateMatchRequest,
              dev.tavla.v1.ValidateMatchResponse>(
                service, METHODID_VALIDATE_MATCH)))
        .build();
  }

  private static abstract class EngineServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    EngineServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.tavla.v1.EngineServiceOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("EngineService");
    }
  }

  private static final class EngineServiceFileDescriptorSupplier
      extends EngineServiceBaseDescriptorSupplier {
    EngineServiceFileDescriptorSupplier() {}
  }

  private static final class EngineServiceMethodDescriptorSupplier
      extends EngineServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    EngineServiceMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (EngineServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new EngineServiceFileDescriptorSupplier())
              .addMethod(getGetInitialPositionMethod())
              .addMethod(getListLegalMovesMethod())
              .addMethod(getApplyMoveMethod())
              .addMethod(getScoreGameMethod())
              .addMethod(getBearOffMethod())
              .addMethod(getListLegalStepsMethod())
              .addMethod(getStartGameMethod())
              .addMethod(getCommitDiceMethod())
              .addMethod(getRollDiceMethod())
              .addMethod(getNameRollMethod())
              .addMethod(getListCubeActionsMethod())
              .addMethod(getApplyCubeActionMethod())
              .addMethod(getOfferResignationMethod())
              .addMethod(getAnswerResignationMethod())
              .addMethod(getUpdateMatchMethod())
              .addMethod(getAdvanceClockMethod())
              .addMethod(getGetRulesetMethod())
              .addMethod(getListRulesetsMethod())
              .addMethod(getValidateMatchMethod())
              .build();
        }
      }
    }
    return result;
  }
}
