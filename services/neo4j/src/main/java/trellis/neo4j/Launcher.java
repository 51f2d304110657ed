package trellis.neo4j;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j Community embedded with only the Bolt connector, on loopback.
 *
 * Usage: Launcher HOME_DIR PORT [PAGE_CACHE_MB]
 *
 * Exit codes: 0 clean shutdown, 2 bad arguments, 3 port in use, 4 data folder
 * already used by another launcher, 5 database failed to start.
 * Prints "TRELLIS-NEO4J-READY port=N" once Bolt accepts connections.
 */
public final class Launcher {
    private static final String HOST = "127.0.0.1";
    private static final long AVAILABILITY_TIMEOUT_MS = 120_000;

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            fail(2, "usage: Launcher HOME_DIR PORT [PAGE_CACHE_MB]");
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        long pageCacheMb = args.length > 2 ? Long.parseLong(args[2]) : 128;
        Files.createDirectories(home);
        try (FileChannel channel = FileChannel.open(home.resolve("launcher.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                fail(4, "data folder " + home + " is already in use by another Neo4j launcher");
            }
            requirePortFree(port);
            run(home, port, pageCacheMb);
        }
    }

    private static void run(Path home, int port, long pageCacheMb) throws InterruptedException {
        DatabaseManagementService service = start(home, port, pageCacheMb);
        requireDefaultDatabase(service, home);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("TRELLIS-NEO4J-STOPPING");
            service.shutdown();
            stopped.countDown();
        }, "trellis-neo4j-shutdown"));
        System.out.println("TRELLIS-NEO4J-READY port=" + port);
        System.out.flush();
        stopped.await();
    }

    private static DatabaseManagementService start(Path home, int port, long pageCacheMb) {
        try {
            return new DatabaseManagementServiceBuilder(home)
                    .setConfig(BoltConnector.enabled, true)
                    .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, port))
                    .setConfig(BoltConnector.advertised_address, new SocketAddress(HOST, port))
                    .setConfig(HttpConnector.enabled, false)
                    .setConfig(GraphDatabaseSettings.auth_enabled, false)
                    .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                    .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(5))
                    .build();
        } catch (RuntimeException e) {
            fail(5, "Neo4j failed to start in " + home + ": " + rootMessage(e));
            throw e;
        }
    }

    /** The DBMS starts even when a database's store is unreadable; refuse to serve then. */
    private static void requireDefaultDatabase(DatabaseManagementService service, Path home)
            throws InterruptedException {
        GraphDatabaseService system = service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        long deadline = System.currentTimeMillis() + AVAILABILITY_TIMEOUT_MS;
        String status = "starting";
        String message = "";
        while (System.currentTimeMillis() < deadline) {
            String[] state = system.executeTransactionally(
                    "SHOW DATABASE $name YIELD currentStatus, statusMessage",
                    Map.of("name", GraphDatabaseSettings.DEFAULT_DATABASE_NAME),
                    result -> result.hasNext()
                            ? toState(result.next())
                            : new String[] {"missing", ""});
            status = state[0];
            message = state[1];
            if (!status.equals("starting")) {
                break;
            }
            Thread.sleep(200);
        }
        if (!status.equals("online")) {
            service.shutdown();
            fail(5, "the neo4j database in " + home + " is " + status
                    + "; its store may be corrupt (" + message.lines().findFirst().orElse("")
                    + "); the folder was left as it was, see " + home.resolve("logs/debug.log"));
        }
    }

    private static String[] toState(Map<String, Object> row) {
        Object message = row.get("statusMessage");
        return new String[] {String.valueOf(row.get("currentStatus")), message == null ? "" : message.toString()};
    }

    private static void requirePortFree(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(HOST, port));
        } catch (IOException e) {
            fail(3, "port " + port + " on " + HOST + " is already in use; stop what holds it or set NEO4J_BOLT_PORT");
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    private static void fail(int code, String message) {
        PrintStream err = System.err;
        err.println("TRELLIS-NEO4J-ERROR " + message);
        err.flush();
        System.exit(code);
    }
}
