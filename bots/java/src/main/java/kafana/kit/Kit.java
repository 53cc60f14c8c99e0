package kafana.kit;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import kafana.v1.ActRequest;
import kafana.v1.ActResponse;
import kafana.v1.BotGrpc;
import kafana.v1.HelloRequest;
import kafana.v1.HelloResponse;
import kafana.v1.Notification;
import kafana.v1.NotifyResponse;
import kafana.v1.SessionRequest;
import kafana.v1.SessionResponse;

/**
 * The Kafana kit for Java: serve a decision function as a bot, so that a bot is only its decisions.
 *
 * <pre>{@code
 * Kit.serve(new Kit.Info("first", List.of("tapa")),
 *           request -> ActResponse.newBuilder().setActionId(request.getLegalActions(0).getId()).build());
 * }</pre>
 *
 * <p>The referee starts the bot with {@code KAFANA_BOT_ADDRESS} set to where it must listen ({@code unix:/path} or
 * {@code 127.0.0.1:PORT}); {@link #serve} listens there, answers Hello from an {@link Info}, passes every Act to
 * the {@link Player} and every Notify to {@link Player#notify} (whether they come as calls or on the Session stream,
 * which it serves and says so in Hello), and exits when the referee (its parent) is gone.
 */
public final class Kit {
  private Kit() {}

  /** Who the bot is: its answer to Hello. */
  public record Info(String name, String version, String author, List<String> games, boolean actionDetail) {
    /** Version "1.0", no author, action detail wanted. */
    public Info(String name, List<String> games) {
      this(name, "1.0", "", games, true);
    }
  }

  /** What decides. A lambda {@code request -> response} is a Player. */
  @FunctionalInterface
  public interface Player {
    /** The answer to one decision: its action id must be the id of one of the request's legal actions. */
    ActResponse act(ActRequest request);

    /** A game or match ended (the default ignores it). */
    default void notify(Notification event) {}
  }

  private static final class Service extends BotGrpc.BotImplBase {
    private final HelloResponse hello;
    private final Player player;

    Service(HelloResponse hello, Player player) {
      this.hello = hello;
      this.player = player;
    }

    @Override
    public void hello(HelloRequest request, StreamObserver<HelloResponse> answer) {
      answer.onNext(hello);
      answer.onCompleted();
    }

    @Override
    public void act(ActRequest request, StreamObserver<ActResponse> answer) {
      if (request.getLegalActionsCount() == 0) {
        answer.onError(Status.INVALID_ARGUMENT.withDescription("no legal actions").asRuntimeException());
        return;
      }
      answer.onNext(player.act(request));
      answer.onCompleted();
    }

    @Override
    public void notify(Notification request, StreamObserver<NotifyResponse> answer) {
      player.notify(request);
      answer.onNext(NotifyResponse.getDefaultInstance());
      answer.onCompleted();
    }

    /** Each request of the referee's stream, answered in order as act and notify answer their calls. */
    @Override
    public StreamObserver<SessionRequest> session(StreamObserver<SessionResponse> answers) {
      return new StreamObserver<>() {
        @Override
        public void onNext(SessionRequest request) {
          if (request.hasAct()) {
            if (request.getAct().getLegalActionsCount() == 0) {
              answers.onError(Status.INVALID_ARGUMENT.withDescription("no legal actions").asRuntimeException());
              return;
            }
            answers.onNext(SessionResponse.newBuilder().setAct(player.act(request.getAct())).build());
          } else {
            player.notify(request.getNotify());
            answers.onNext(SessionResponse.newBuilder().setNotified(NotifyResponse.getDefaultInstance()).build());
          }
        }

        @Override
        public void onError(Throwable failed) {}

        @Override
        public void onCompleted() {
          answers.onCompleted();
        }
      };
    }
  }

  /** Exits when the referee (the parent process) is gone, even when it was killed. */
  private static void watchParent() {
    ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
    Thread watcher = new Thread(() -> {
      while (parent != null && parent.isAlive()) {
        try {
          Thread.sleep(500);
        } catch (InterruptedException stopped) {
          return;
        }
      }
      System.exit(0);
    }, "kafana-parent-watch");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static SocketAddress socketAddress(String address) {
    if (address.startsWith("unix:")) {
      return new DomainSocketAddress(address.substring("unix:".length()));
    }
    int colon = address.lastIndexOf(':');
    return new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
  }

  /** Serves {@code player} as the bot {@code info} at {@code $KAFANA_BOT_ADDRESS} until the referee stops it. */
  public static void serve(Info info, Player player) {
    String address = System.getenv("KAFANA_BOT_ADDRESS");
    if (address == null || address.isEmpty()) {
      System.err.println("KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play ...)");
      System.exit(2);
    }
    watchParent();
    HelloResponse hello = HelloResponse.newBuilder()
        .setName(info.name())
        .setVersion(info.version())
        .setAuthor(info.author())
        .setLanguage("java")
        .addAllGames(info.games())
        .setWithoutActionDetail(!info.actionDetail())
        .setSession(true)
        .build();
    boolean unix = address.startsWith("unix:");
    // One event-loop thread; calls run on it (a referee asks one thing at a time), so the bot needs few threads.
    EventLoopGroup loop = new EpollEventLoopGroup(1);
    Server server = NettyServerBuilder.forAddress(socketAddress(address))
        .channelType(unix ? EpollServerDomainSocketChannel.class : EpollServerSocketChannel.class)
        .bossEventLoopGroup(loop)
        .workerEventLoopGroup(loop)
        .directExecutor()
        .maxInboundMessageSize(64 * 1024 * 1024)
        .addService(new Service(hello, player))
        .build();
    try {
      server.start();
      server.awaitTermination();
    } catch (IOException failed) {
      System.err.println("cannot listen on " + address + ": " + failed.getMessage());
      System.exit(1);
    } catch (InterruptedException stopped) {
      server.shutdownNow();
    }
  }
}
