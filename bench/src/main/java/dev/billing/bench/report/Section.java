package dev.billing.bench.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scenario's part of the report: figures (min/median/max), free-form tables, notes and the raw
 * data behind them.
 */
public final class Section {
  public record Table(String title, List<String> header, List<List<String>> rows) {}

  private final String key;
  private final String title;
  private final List<String> notes = new ArrayList<>();
  private final List<Figure> figures = new ArrayList<>();
  private final List<Table> tables = new ArrayList<>();
  private final Map<String, Object> parameters = new LinkedHashMap<>();
  private final ObjectNode data = JsonNodeFactory.instance.objectNode();

  public Section(String key, String title) {
    this.key = key;
    this.title = title;
  }

  public Section note(String markdown) {
    notes.add(markdown);
    return this;
  }

  public Figure figure(String key, String label, String unit, Summary value) {
    Figure figure = new Figure(key, label, unit, value);
    figures.add(figure);
    return figure;
  }

  public Section table(String title, List<String> header, List<List<String>> rows) {
    tables.add(new Table(title, header, rows));
    return this;
  }

  public Section parameter(String name, Object value) {
    parameters.put(name, value);
    return this;
  }

  public ObjectNode data() {
    return data;
  }

  public String key() {
    return key;
  }

  public String title() {
    return title;
  }

  public List<String> notes() {
    return notes;
  }

  public List<Figure> figures() {
    return figures;
  }

  public List<Table> tables() {
    return tables;
  }

  public Map<String, Object> parameters() {
    return parameters;
  }
}
