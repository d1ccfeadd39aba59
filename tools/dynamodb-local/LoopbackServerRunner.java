import java.lang.reflect.Field;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local listening on one address (-Dmarginalia.host, default 127.0.0.1) instead of every
 * interface. DynamoDBLocal.jar has no option for it: DynamoDBProxyServer builds a Jetty
 * {@code new Server(port)}, whose one ServerConnector has no host and so binds the wildcard address.
 * This builds the server as {@code java -jar DynamoDBLocal.jar <args>} does
 * (ServerRunner.createServerFromCommandLineArgs), sets the connector's host before it binds, puts
 * {@link LoopbackGuard} in front of its handler, and starts it.
 *
 * <p>scripts/dynamodb-local.ts runs it in Java's source-file mode, with DynamoDBLocal.jar on the class path
 * (its manifest brings DynamoDBLocal_lib): {@code java -cp DynamoDBLocal.jar LoopbackServerRunner.java -port
 * N -inMemory}. It exits with status 97 when the jar's classes are not what it expects, and the caller then
 * falls back to {@code java -jar}.
 */
public final class LoopbackServerRunner {
  private static final int INCOMPATIBLE_JAR = 97;

  public static void main(String[] args) throws Exception {
    String host = System.getProperty("marginalia.host", "127.0.0.1");
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Server server = jettyServer(proxy, host);
    for (Connector connector : server.getConnectors()) {
      if (!(connector instanceof ServerConnector)) incompatible(host, "a connector is a " + connector);
      ((ServerConnector) connector).setHost(host);
    }
    if (server.getHandler() == null) incompatible(host, "its server has no handler");
    server.setHandler(new LoopbackGuard(server.getHandler()));
    proxy.start();
    System.out.println("marginalia: DynamoDB Local listens on " + host + " only");
  }

  /** The Jetty server inside DynamoDBProxyServer: a private field, with no getter. */
  private static Server jettyServer(DynamoDBProxyServer proxy, String host) {
    try {
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      Server server = (Server) field.get(proxy);
      if (server.getConnectors().length == 0) incompatible(host, "its server has no connector");
      return server;
    } catch (ReflectiveOperationException | ClassCastException error) {
      incompatible(host, error.toString());
      throw new IllegalStateException(error);
    }
  }

  private static void incompatible(String host, String reason) {
    System.err.println("marginalia: cannot make DynamoDB Local listen on " + host + " only: " + reason);
    System.exit(INCOMPATIBLE_JAR);
  }

  /**
   * Refuses, with a 403, a request whose Host is not a loopback name (127.0.0.1, localhost or [::1], with
   * any port or none: a test's proxy in front forwards its own), or that carries an Origin. Listening on 127.0.0.1 keeps other hosts out, but not a
   * web page in the developer's browser: DynamoDB Local answers CORS for any origin, so a page could call it
   * on 127.0.0.1, or rebind its own name to 127.0.0.1 (DNS rebinding) and call it as same-origin. The SDK
   * sends Host 127.0.0.1:port and no Origin; a browser always sends the page's name as Host, and an Origin
   * on every cross-origin call and every POST.
   */
  static final class LoopbackGuard extends Handler.Wrapper {
    private final Pattern loopbackHost;

    LoopbackGuard(Handler handler) {
      super(handler);
      loopbackHost =
          Pattern.compile("(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::\\d{1,5})?", Pattern.CASE_INSENSITIVE);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String host = request.getHeaders().get(HttpHeader.HOST);
      boolean loopback = host == null || loopbackHost.matcher(host).matches();
      if (loopback && !request.getHeaders().contains(HttpHeader.ORIGIN)) {
        return super.handle(request, response, callback);
      }
      response.setStatus(403);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
      Content.Sink.write(
          response,
          true,
          "DynamoDB Local (Marginalia) answers only requests to 127.0.0.1, localhost or [::1] without an Origin.\n",
          callback);
      return true;
    }
  }
}
