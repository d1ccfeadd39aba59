import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local listening on one address (-Dmarginalia.host, default 127.0.0.1) instead of every
 * interface. DynamoDBLocal.jar has no option for it: DynamoDBProxyServer builds a Jetty
 * {@code new Server(port)}, whose one ServerConnector has no host and so binds the wildcard address.
 * This builds the server as {@code java -jar DynamoDBLocal.jar <args>} does
 * (ServerRunner.createServerFromCommandLineArgs), sets the connector's host before it binds, and starts it.
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
    for (Connector connector : jettyServer(proxy, host).getConnectors()) {
      if (!(connector instanceof ServerConnector)) incompatible(host, "a connector is a " + connector);
      ((ServerConnector) connector).setHost(host);
    }
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
}
