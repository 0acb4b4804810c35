package dev.billing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {

  @Test
  void medianOfAnOddCountIsTheMiddleValueAndOfAnEvenCountTheMeanOfTheTwoMiddleOnes() {
    assertThat(Summary.of(5, 1, 3)).isEqualTo(new Summary(1, 3, 5, List.of(5.0, 1.0, 3.0)));
    Summary even = Summary.of(4, 1, 3, 10);
    assertThat(even.min()).isEqualTo(1);
    assertThat(even.median()).isEqualTo(3.5);
    assertThat(even.max()).isEqualTo(10);
  }

  @Test
  void ratiosPairTrialsInOrder() {
    Summary workflow = Summary.of(80, 90, 100);
    Summary batch = Summary.of(100, 100, 125);
    assertThat(Summary.ratio(workflow, batch).samples()).containsExactly(0.8, 0.9, 0.8);
    assertThat(Summary.ratio(workflow, batch).median()).isEqualTo(0.8);
    assertThatThrownBy(() -> Summary.ratio(workflow, Summary.of(1, 2)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void percentilesAreNearestRank() {
    List<Double> values = List.of(5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 9.0, 8.0, 7.0, 6.0);
    assertThat(Summary.percentile(values, 50)).isEqualTo(5);
    assertThat(Summary.percentile(values, 90)).isEqualTo(9);
    assertThat(Summary.percentile(values, 99)).isEqualTo(10);
    assertThat(Summary.percentile(List.of(7.0), 50)).isEqualTo(7);
  }

  @Test
  void numbersKeepAboutThreeSignificantFigures() {
    assertThat(ReportWriter.number(2000)).isEqualTo("2,000");
    assertThat(ReportWriter.number(123.4)).isEqualTo("123");
    assertThat(ReportWriter.number(12.34)).isEqualTo("12.3");
    assertThat(ReportWriter.number(1.234)).isEqualTo("1.23");
    assertThat(ReportWriter.number(0.12345)).isEqualTo("0.1235");
    assertThat(ReportWriter.number(0.000123)).isEqualTo("0.000123");
  }

  @Test
  void threadGroupsDropNumbersAndWorkflowIds() {
    assertThat(ThreadCpu.group("grpc-default-executor-12")).isEqualTo("grpc-default-executor-#");
    assertThat(ThreadCpu.group("workflow-method-subscription-sub_w_1-5cd1dc"))
        .isEqualTo("workflow-method-* (workflow threads)");
    assertThat(ThreadCpu.group("qtp123-45-acceptor-0@4ea5f-ServerConnector"))
        .isEqualTo("qtp#-#-acceptor-#");
  }
}
